#!/usr/bin/env bash
# Prepared in session 46, NOT RUN: for issue 14's weak Smith-Waterman scaling
# (2 H200s: 1.118x at a 2^21 pair, 0.911x at 2^20, 2026-11-26), what one GPU
# loses on the tiles the multi-GPU plans cut, with no second GPU involved:
# the same pair on one GPU as one tile (the 1-GPU plan) and in the 2- and
# 4-GPU plans' tiles (2^21: 1048576x131072 and 524288x131072; 2^20:
# 524288x131072), and wider ones. If the narrow tiles alone run far slower
# per cell, the loss is each tile's fill and drain of its pipeline of bands
# (bands = tile rows / 512, hyper-tiles = columns / 32: 2048 bands against
# 4096 hyper-tiles in a 1048576x131072 tile, 4096 against 65536 in the whole
# 2^21 space), not the exchange between GPUs. Any one GPU, about 200 s.
# Run from the repository root with the bundle (smith-waterman, and
# scripts/device/*.sh in it) carried:
#   bash docs/perf/h100-2026-12-07/call5.sh
set -uo pipefail
b=gpu-bundle
r=$OUT/r; mkdir -p $r
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $r/device.txt
P="smith-waterman --alphabet protein --width 32"
CASES="sw 2^21: one tile|s|0|$P --size 2097152
sw 2^21: 1048576x131072|s|0|$P --size 2097152 --tile 1048576x131072
sw 2^21: 1048576x524288|s|0|$P --size 2097152 --tile 1048576x524288
sw 2^21: 524288x131072|s|0|$P --size 2097152 --tile 524288x131072
sw 2^21: 2097152x131072|s|0|$P --size 2097152 --tile 2097152x131072
sw 2^20: one tile|s|0|$P --size 1048576
sw 2^20: 524288x131072|s|0|$P --size 1048576 --tile 524288x131072
sw 2^20: 524288x524288|s|0|$P --size 1048576 --tile 524288x524288" \
ROUNDS=2 RUN_TIMEOUT=60 OUT=$r timeout 500 $b/device_plans.sh 2>&1 | tee $r/plans.txt | tail -12
tar -C $OUT -czf $OUT/call5.tgz r && rm -rf $r
echo "seconds $SECONDS"
