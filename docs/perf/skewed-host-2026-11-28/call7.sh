#!/usr/bin/env bash
# Session 35, call 7 (branch next/small-cap-stall, diagnostic switches in
# SkewedRun): which of the task window, the prefetch of each task's newest
# slab, and the early write-back (starpu_data_wont_use) makes small-cap
# --skew auto runs stall. Himeno M 40 steps under 56 MiB, jacobi2d 4096^2
# 60 steps under 32 MiB, --verify, a stall ends a run after 10 s (exit 3).
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
start=$(date +%s)
export TRAPEZE_HOME=$PWD/trapeze-home-n TRAPEZE_STALL_SECONDS=10
run() {  # label env... -- program args
  local label=$1; shift
  local line
  line=$(env "$@" 2>&1 | tail -1)
  echo "$label: $(echo "$line" | grep -o '"verified":[a-z]*\|"tile":"[^"]*"\|"height":[0-9]*\|"seconds":[0-9.]*\|"pcie_bytes":[0-9.e+]*\|error: no task finished for [0-9]* s' | paste -sd' ')"
}
M="./run.sh himeno --devices gpu --size M --steps 40 --skew auto --verify --json"
J="./run.sh jacobi2d --devices gpu --size 4096 --steps 60 --skew auto --verify --json"
for round in 1 2; do
  run "M56 default" STARPU_LIMIT_CUDA_MEM=56 timeout 20 $M
  run "M56 no prefetch" STARPU_LIMIT_CUDA_MEM=56 TRAPEZE_SKEW_PREFETCH=0 timeout 20 $M
  run "M56 no wont_use" STARPU_LIMIT_CUDA_MEM=56 TRAPEZE_SKEW_WONT_USE=0 timeout 20 $M
  run "M56 window 1" STARPU_LIMIT_CUDA_MEM=56 TRAPEZE_SKEW_WINDOW=1 timeout 20 $M
  run "M56 none" STARPU_LIMIT_CUDA_MEM=56 TRAPEZE_SKEW_WINDOW=1 TRAPEZE_SKEW_PREFETCH=0 TRAPEZE_SKEW_WONT_USE=0 timeout 20 $M
  run "J32 default" STARPU_LIMIT_CUDA_MEM=32 timeout 20 $J
  run "J32 no prefetch" STARPU_LIMIT_CUDA_MEM=32 TRAPEZE_SKEW_PREFETCH=0 timeout 20 $J
  run "J32 none" STARPU_LIMIT_CUDA_MEM=32 TRAPEZE_SKEW_WINDOW=1 TRAPEZE_SKEW_PREFETCH=0 TRAPEZE_SKEW_WONT_USE=0 timeout 20 $J
  [ $(( $(date +%s) - start )) -gt 70 ] && break
done
echo "total $(( $(date +%s) - start )) s"
