#!/usr/bin/env bash
# Session 34, call 4: SkewedRun after call 3 (kernels without per-thread
# copies of the geometry, tasks through a window of 3 with their newest slab
# prefetched and finished slabs written back early, the automatic choice
# with a minimum slab and a 0.75 share): correctness under caps (--verify),
# Himeno L 128 steps under 448 MiB against in core and the automatic
# trapezoids, and one FxT trace of the automatic skewed run.
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
start=$(date +%s)
export TRAPEZE_HOME=$PWD/trapeze-home-n TRAPEZE_STALL_SECONDS=15
{
  STARPU_LIMIT_CUDA_MEM=56 timeout 25 ./run.sh himeno --devices gpu --size M --steps 40 --skew auto --verify --json
  STARPU_LIMIT_CUDA_MEM=16 timeout 25 ./run.sh jacobi2d --devices gpu --size 4096 --steps 100 --skew auto --verify --json
  STARPU_LIMIT_CUDA_MEM=16 timeout 25 ./run.sh jacobi3d --devices gpu --size 256 --steps 30 --skew auto --verify --json
  STARPU_LIMIT_CUDA_MEM=24 timeout 25 ./run.sh cip --devices gpu --size 2048 --steps 40 --skew auto --verify --json
} > "$OUT/verify.txt" 2>&1; echo "verify exit $?" >> "$OUT/verify.txt"
grep -o "\"app\":\"[a-z0-9]*\"\|\"verified\":[a-z]*\|\"tile\":\"[^\"]*\"\|\"height\":[0-9]*\|\"seconds\":[0-9.]*\|verify exit [0-9]*\|error.*\|no task.*" "$OUT/verify.txt" | paste -sd' '
echo "verify done $(( $(date +%s) - start )) s"
H="--size L --steps 128"
PROFILES="n|himeno --size S --steps 16" \
CASES="h: in core|n|0|himeno $H
h: trapezoids auto|n|448|himeno $H
h: skew auto|n|448|himeno $H --skew auto
h: skew 4:16|n|448|himeno $H --skew 4:16
h: skew 8:8|n|448|himeno $H --skew 8:8
h: skew 8:32 in core|n|0|himeno $H --skew 8:32" ROUNDS=3 RUN_TIMEOUT=25 bash ./device_plans.sh
STARPU_LIMIT_CUDA_MEM=448 timeout 40 ./run.sh himeno --devices gpu $H --skew auto --json --trace "$OUT/trace-skew-auto" 2>&1 | tail -1 | cut -c1-300
ls -la "$OUT/trace-skew-auto" 2>/dev/null | head
echo "total $(( $(date +%s) - start )) s"
