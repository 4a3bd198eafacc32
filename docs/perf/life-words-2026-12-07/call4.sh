#!/usr/bin/env bash
# Prepared in session 47, NOT RUN (any one GPU, about 400 s): issue 14's
# Smith-Waterman tiles on one GPU, after call 2 found the 2-GPU plan's tiles
# (1048576x131072) at 0.819 of one tile and 8 tiles of 1048576x524288 at
# 1.182 of it. Which tile shapes are fast on one GPU (rows x columns), and
# does the hyper-tile width's model (--width auto) move it? The answer sets
# the multi-GPU plan's column width and the one-GPU default tile.
# Run from the repository root with the bundle (smith-waterman;
# scripts/device/*.sh) carried:
#   bash docs/perf/life-words-2026-12-07/call4.sh
set -uo pipefail
b=${BUNDLE:-gpu-bundle}
r=$OUT/r; mkdir -p $r
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $r/device.txt
P="smith-waterman --alphabet protein --width 32 --size 2097152"
CASES="sw 2^21: one tile|s|0|$P
sw 2^21: 1048576x524288|s|0|$P --tile 1048576x524288
sw 2^21: 2097152x524288|s|0|$P --tile 2097152x524288
sw 2^21: 1048576x1048576|s|0|$P --tile 1048576x1048576
sw 2^21: 524288x524288|s|0|$P --tile 524288x524288
sw 2^21: 524288x2097152|s|0|$P --tile 524288x2097152
sw 2^21: 2097152x262144|s|0|$P --tile 2097152x262144
sw 2^21: one tile, width auto|s|0|${P/--width 32/--width auto}" \
ROUNDS=2 RUN_TIMEOUT=40 OUT=$r timeout 560 $b/device_plans.sh 2>&1 | tee $r/plans.txt | tail -12
tar -C $OUT -czf $OUT/call4.tgz r && rm -rf $r
echo "seconds $SECONDS"
