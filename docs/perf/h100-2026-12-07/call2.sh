#!/usr/bin/env bash
# Call 2 (nvidia-h100-x1), session 46: issue 11's quarter cap again now that
# jacobi2d in core runs the 16-byte 2-D trapezoid (about 2x the kernel the
# 0.904-0.918 of sessions 33-35 was measured with): jacobi2d 16384^2 at 512
# steps (the earlier runs') and 2048, and CIP 16384^2 256 steps, in core
# against STARPU_LIMIT_CUDA_MEM of a quarter of the domain, 3 interleaved
# rounds (device_plans.sh, medians of per-round ratios).
# Run from the repository root with the bundle (and scripts/device/*.sh in it) carried:
#   bash docs/perf/h100-2026-12-07/call2.sh
set -uo pipefail
b=gpu-bundle
r=$OUT/r; mkdir -p $r
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $r/device.txt
CASES="j2 512: in core|h|0|jacobi2d --size 16384 --steps 512
j2 512: capped|h|256|jacobi2d --size 16384 --steps 512
j2 2048: in core|h|0|jacobi2d --size 16384 --steps 2048
j2 2048: capped|h|256|jacobi2d --size 16384 --steps 2048
cip: in core|c|0|cip --size 16384 --steps 256
cip: capped|c|1280|cip --size 16384 --steps 256" \
PROFILES="h|jacobi2d --size 4096 --steps 16;c|cip --size 4096 --steps 16" \
ROUNDS=${ROUNDS:-3} RUN_TIMEOUT=60 OUT=$r timeout 560 $b/device_plans.sh 2>&1 | tee $r/plans.txt | tail -12
tar -C $OUT -czf $OUT/call2.tgz r && rm -rf $r
echo "seconds $SECONDS"
