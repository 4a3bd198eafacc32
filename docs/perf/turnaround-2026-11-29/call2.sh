#!/usr/bin/env bash
# Call 2 (nvidia-h200): what each thing a stage task carries costs StarPU's
# turnaround (gpu_task_turnaround's shapes), and pathfinder h = 1 with GPU-only
# stage tasks holding no chunk scratch (new) against call 1's build (old),
# alternating, at 4M columns (64 steps) and 16M columns (32 steps).
# Needs gpu-bundle/bin/gpu_stencils_old (call 1's gpu_stencils).
set -uo pipefail
b=gpu-bundle
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee $OUT/device.txt
timeout 150 $b/run.sh gpu_task_turnaround --sizes 1,4194304,16777216,33554432 --steps 256 2>&1 | grep -v Warning | tee $OUT/turnaround.txt
run() {  # build columns steps
  local exe=gpu_stencils extra=--h1-only
  [ $1 = old ] && exe=gpu_stencils_old extra=--no-sweep
  echo "== $1 columns $2 steps $3" >> $OUT/pathfinder.txt
  timeout 150 $b/run.sh $exe --apps pathfinder $extra --rounds 1 --pathfinder-columns $2 --pathfinder-steps $3 \
    --json-out $OUT/pf-$1-$2-$r.json 2>/dev/null | grep "^pathfinder" >> $OUT/pathfinder.txt
}
for r in 1 2 3; do run old 4194304 64; run new 4194304 64; done
for r in 1 2; do run new 16777216 32; run old 16777216 32; done
cat $OUT/pathfinder.txt
