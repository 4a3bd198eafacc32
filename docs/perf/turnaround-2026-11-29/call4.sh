#!/usr/bin/env bash
# Call 4 (nvidia-h200, call 3's bundle, the machine still warm): pathfinder
# h = 1 on 2^25 columns with 24 steps a submission (96 wall rows: one tile,
# where call 3's 32 steps needed two), twice.
b=gpu-bundle; for r in 1 2; do timeout 100 $b/run.sh gpu_stencils --h1-only --rounds 1 --apps pathfinder --pathfinder-columns 33554432 --pathfinder-steps 24 --json-out $OUT/pathfinder-2-25-24steps-$r.json 2>&1 | grep "^pathfinder"; done
