#!/usr/bin/env bash
# Session 35, call 5: where skewed slabs stand beside the default plans for
# the other out-of-core apps (build 42e06c7, the kernel of call 3): jacobi2d
# 16384^2 512 steps (cap 256 MiB), CIP 16384^2 256 steps (1280 MiB),
# jacobi3d 512^3 128 steps (128 MiB), each in core and under its quarter cap,
# the default plan against --skew auto.
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
start=$(date +%s)
export TRAPEZE_STALL_SECONDS=15
J="--size 16384 --steps 512"; C="--size 16384 --steps 256"; D="--size 512 --steps 128"
PROFILES="n|jacobi2d --size 1024 --steps 16;n|cip --size 1024 --steps 16;n|jacobi3d --size 128 --steps 16" \
CASES="j: in core|n|0|jacobi2d $J
j: skew auto in core|n|0|jacobi2d $J --skew auto
j: auto capped|n|256|jacobi2d $J
j: skew auto capped|n|256|jacobi2d $J --skew auto
c: in core|n|0|cip $C
c: skew auto in core|n|0|cip $C --skew auto
c: skew auto capped|n|1280|cip $C --skew auto
d: in core|n|0|jacobi3d $D
d: skew auto in core|n|0|jacobi3d $D --skew auto
d: auto capped|n|128|jacobi3d $D
d: skew auto capped|n|128|jacobi3d $D --skew auto" ROUNDS=3 RUN_TIMEOUT=20 timeout 420 bash ./device_plans.sh
echo "total $(( $(date +%s) - start )) s"
