#!/usr/bin/env bash
# Session 37, call 2: where the capped zig-zag run's time goes. Himeno L 128
# steps with call 1's build: in core with the capped run's slabs and passes
# (4:32), with its slabs in one pass (4:128), against --skew auto in core
# (8:128); capped 4:32; 3 passes (2:43) under caps above 448 MiB, where they
# start to run. Interleaved, 3 rounds, medians.
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
start=$(date +%s)
export TRAPEZE_STALL_SECONDS=8
H="--size L --steps 128"
PROFILES="n|himeno --size S --steps 16" \
CASES="h: skew auto in core|n|0|himeno $H --skew auto
h: 4:128 in core|n|0|himeno $H --skew 4:128
h: 4:32 in core|n|0|himeno $H --skew 4:32
h: 4:32 capped 448|n|448|himeno $H --skew 4:32
h: 2:43 in core|n|0|himeno $H --skew 2:43
h: 2:43 capped 480|n|480|himeno $H --skew 2:43
h: 2:43 capped 512|n|512|himeno $H --skew 2:43
h: 2:43 capped 576|n|576|himeno $H --skew 2:43" ROUNDS=3 RUN_TIMEOUT=25 bash ./device_plans.sh 2>&1 | tail -10
echo "total $(( $(date +%s) - start )) s"
