#!/usr/bin/env bash
# Session 33, call 1: the GPU label and compute-sanitizer on main (5d88436),
# then jacobi2d 16384^2 512 steps under a 256 MiB cap: three builds' automatic
# plans (A main: starpu_transfer_predict, a stage task a third of the GPU;
# B: starpu_transfer_bandwidth; C: B with a stage task 0.3 of the GPU) and
# a sweep of the blocking factor H on the automatic tile, against in core.
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
start=$(date +%s)
timeout 300 ./run_gpu_tests.sh > "$OUT/gpu_tests.txt" 2>&1; echo "run_gpu_tests.sh exit $? ($(( $(date +%s) - start )) s)" | tee "$OUT/gpu_tests_summary.txt"
{ grep -cE '^\[       OK' "$OUT/gpu_tests.txt"; grep -E '^\[  FAILED  \] [A-Z]|ERROR SUMMARY|RACECHECK SUMMARY|verified|passed|failed' "$OUT/gpu_tests.txt" | head -30; } | tee -a "$OUT/gpu_tests_summary.txt"
J="jacobi2d --size 16384 --steps 512"
PROFILES="a|jacobi2d --size 1024 --steps 16;b|jacobi2d-B --size 1024 --steps 16;c|jacobi2d-C --size 1024 --steps 16" \
CASES="j: in core|a|0|$J
j: auto A|a|256|$J
j: auto B|b|256|jacobi2d-B --size 16384 --steps 512
j: auto C|c|256|jacobi2d-C --size 16384 --steps 512
j: H96|a|256|$J --tile 4096x2048 --height 96
j: H128|a|256|$J --tile 4096x2048 --height 128
j: H160|a|256|$J --tile 4096x2048 --height 160
j: H180|a|256|$J --tile 4096x2048 --height 180
j: H128 8192x1024|a|256|$J --tile 8192x1024 --height 128" ROUNDS=3 RUN_TIMEOUT=40 bash ./device_plans.sh
echo "total $(( $(date +%s) - start )) s"
