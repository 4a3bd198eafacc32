#!/usr/bin/env bash
# Call 2 (nvidia-h200), session 42: call 1 found StarPU's turnaround about
# 3.5 µs instead of 7 with STARPU_NCPU=0. How it grows with the CPU workers,
# whether the spinning back-off changes it, and what it gives pathfinder's
# h = 1 (its own plain loop in the same process), all interleaved.
# Run from the repository root with the bundle carried: bash docs/perf/turnaround-knobs-2026-11-29/call2.sh
set -uo pipefail
b=gpu-bundle
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $OUT/device.txt
variants=("base" "STARPU_NCPU=0" "STARPU_NCPU=1" "STARPU_NCPU=2" "STARPU_NCPU=4" "STARPU_NCPU=8" "STARPU_BACKOFF_MAX=4096")
for round in 1 2; do
  for v in "${variants[@]}"; do
    echo "== round $round variant $v" >> $OUT/turnaround.txt
    if [ "$v" = base ]; then envs=(); else envs=("$v"); fi
    env "${envs[@]}" timeout 60 $b/run.sh gpu_task_turnaround --sizes 1,4194304 --steps 512 2>&1 | tail -2 >> $OUT/turnaround.txt
  done
done
for round in 1 2 3; do
  for v in base STARPU_NCPU=0 STARPU_NCPU=1; do
    echo "== round $round pathfinder $v" >> $OUT/pathfinder.txt
    if [ "$v" = base ]; then envs=(); else envs=("$v"); fi
    env "${envs[@]}" timeout 100 $b/run.sh gpu_stencils --apps pathfinder --h1-only --rounds 3 2>&1 | tail -4 >> $OUT/pathfinder.txt
  done
done
grep -E "^== |^ +[0-9]" $OUT/turnaround.txt | tail -60
cat $OUT/pathfinder.txt
