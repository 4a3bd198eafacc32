#!/usr/bin/env bash
# Call 1 (nvidia-h200): the GPU suites on this tree (the GPU label without
# MPI and the sanitizers), StarPU's bare task turnaround against a plain loop,
# and pathfinder's h = 1 at its default row and at a row 8x longer.
# Run from the repository root with the bundle carried: bash docs/perf/turnaround-2026-11-29/call1.sh
set -uo pipefail
b=gpu-bundle
export STARPU_NCPU=${STARPU_NCPU:-2}
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $OUT/device.txt
{
  for t in gpu_equality_test gpu_sweep_test gpu_wavefront_test gpu_layout_test; do
    echo "== $t"
    filter=""; [ $t = gpu_equality_test ] && filter=--gtest_filter=-GpuSanitizer.*
    timeout 300 $b/run.sh $t $filter 2>&1 | grep -E "^\[ +(OK|FAILED|PASSED) |tests ran|FAILED|Failure" ; echo "exit ${PIPESTATUS[0]}"
  done
} > $OUT/suites.txt 2>&1
unset STARPU_NCPU
echo "== turnaround" | tee $OUT/turnaround.txt
timeout 120 $b/run.sh gpu_task_turnaround --sizes 1,1048576,4194304,16777216,33554432,67108864 --steps 256 2>&1 | tee -a $OUT/turnaround.txt
for cols in 4194304 33554432; do
  steps=64; [ $cols -gt 4194304 ] && steps=32
  echo "== pathfinder columns $cols steps $steps" | tee -a $OUT/pathfinder.txt
  timeout 200 $b/run.sh gpu_stencils --apps pathfinder --no-sweep --rounds 3 --pathfinder-columns $cols --pathfinder-steps $steps \
    --json-out $OUT/pathfinder-$cols.json 2>&1 | grep -v "round\|sweep H" | tail -12 | tee -a $OUT/pathfinder.txt
done
cat $OUT/suites.txt
