#!/usr/bin/env bash
# Call 1 (nvidia-h200), session 42: the GPU suites on 54682bc (the session-41
# review's host-side refactors never ran on a GPU), then StarPU's bare task
# turnaround (gpu_task_turnaround) under StarPU's own settings, interleaved:
# does any scheduler, pipeline depth, worker count or binding lower the ~7 µs
# floor under pathfinder's h = 1?
# Run from the repository root with the bundle carried: bash docs/perf/turnaround-knobs-2026-11-29/call1.sh
set -uo pipefail
b=gpu-bundle
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $OUT/device.txt
variants=("base" "STARPU_SCHED=dmda" "STARPU_SCHED=lws" "STARPU_SCHED=prio" "STARPU_CUDA_PIPELINE=0" "STARPU_CUDA_PIPELINE=4" "STARPU_NCPU=0" "STARPU_WORKERS_NOBIND=1")
for round in 1 2; do
  for v in "${variants[@]}"; do
    echo "== round $round variant $v" >> $OUT/turnaround.txt
    if [ "$v" = base ]; then envs=(); else envs=("$v"); fi
    env "${envs[@]}" timeout 60 $b/run.sh gpu_task_turnaround --sizes 1,4194304 --steps 512 2>&1 | tail -3 >> $OUT/turnaround.txt
  done
done
export STARPU_NCPU=2
{
  for t in gpu_equality_test gpu_sweep_test gpu_wavefront_test gpu_layout_test; do
    echo "== $t"
    filter=""; [ $t = gpu_equality_test ] && filter=--gtest_filter=-GpuSanitizer.*
    timeout 300 $b/run.sh $t $filter 2>&1 | grep -E "^\[ +(OK|FAILED|PASSED) |tests ran|FAILED|Failure" ; echo "exit ${PIPESTATUS[0]}"
  done
} > $OUT/suites.txt 2>&1
grep -E "^== |^ +[0-9]" $OUT/turnaround.txt | tail -60
grep -E "^==|PASSED|FAILED|exit" $OUT/suites.txt
