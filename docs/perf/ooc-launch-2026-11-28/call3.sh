#!/usr/bin/env bash
# Session 32, call 3: where a capped run's strips go. Out of core, every
# tile's halo strips of a pass (2048^2 tiles at H 180: 377 MB; 8192x1024 at
# H 96: 226 MB) outlive the pass on a GPU capped to 256 MiB, so StarPU must
# write dirty strips back before it can allocate. Variants (experiment only,
# TRAPEZE_STRIP_POLICY): keep (761991b), wontuse (each output strip is
# starpu_data_wont_use after its stage), wt (strips write-through to main
# memory). bin/*-sp: 761991b + the switch; bin/*-scrsp: + the scratch second
# buffer with 3/8 of the GPU a task. k fixed at 12 (call 2's scratch build
# profiled k 24).
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
{
  for b in jacobi2d-sp-wt jacobi2d-sp-wontuse jacobi2d-scrsp-wt jacobi2d-scrsp-wontuse; do
    TRAPEZE_HOME=$PWD/trapeze-home-$b STARPU_LIMIT_CUDA_MEM=64 timeout 120 ./run.sh $b --devices gpu --size 8192 --steps 100 --verify --json
  done
  TRAPEZE_HOME=$PWD/trapeze-home-c STARPU_LIMIT_CUDA_MEM=80 timeout 120 ./run.sh cip-scrsp-wt --devices gpu --size 4096 --steps 64 --verify --json
} > "$OUT/verify.txt" 2>&1; echo "verify exit $?" >> "$OUT/verify.txt"
J="--size 16384 --steps 512"; C="--size 16384 --steps 256"; T8="--tile 8192x1024 --height 96 --kernel-height 12"; T2="--tile 2048x2048 --height 180 --kernel-height 12"
PROFILES="j|jacobi2d --size 1024 --steps 16;c|cip --size 1024 --steps 16;jsp|jacobi2d-sp --size 1024 --steps 16;jscr|jacobi2d-scrsp --size 1024 --steps 16;cs|cip-sp --size 1024 --steps 16" \
CASES="j: in core|j|0|jacobi2d $J
j: 2048 H180 keep|jsp|256|jacobi2d-sp $J $T2
j: 2048 H180 wontuse|jsp|256|jacobi2d-sp-wontuse $J $T2
j: 2048 H180 wt|jsp|256|jacobi2d-sp-wt $J $T2
j: scr 8192x1024 keep|jscr|256|jacobi2d-scrsp $J $T8
j: scr 8192x1024 wontuse|jscr|256|jacobi2d-scrsp-wontuse $J $T8
j: scr 8192x1024 wt|jscr|256|jacobi2d-scrsp-wt $J $T8
j: scr 2048 H180 wt|jscr|256|jacobi2d-scrsp-wt $J $T2
c: in core|c|0|cip $C
c: capped auto keep|cs|1280|cip-sp $C
c: capped auto wt|cs|1280|cip-sp-wt $C
c: capped auto wontuse|cs|1280|cip-sp-wontuse $C" ROUNDS=3 RUN_TIMEOUT=60 bash ./device_plans.sh
grep -o "\"verified\":[a-z]*\|\"tile\":\"[^\"]*\"\|verify exit [0-9]*\|.*out of core.*" "$OUT/verify.txt" | cut -c1-200
