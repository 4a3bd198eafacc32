#!/usr/bin/env bash
# Call 1 (nvidia-h200), session 44: do 2-D GPU tiles want rows a multiple of
# 16 cells, as 3-D ones got in session 43 (jacobi3d's step 0.844 on rows 516
# apart, 0.926 on 528)? The probe's jacobi2d 16-byte step on rows 16416
# apart (128-byte lines, session 42's 0.925), 16388 (the tiles' rows: ghost
# 2) and 16400 (rows of 16: ghost 8), with the 3-D step and vector trapezoid
# on rows 528 apart against 516. Then gpu_stencils' h = 1 for jacobi2d and
# hotspot, this tree (gpu_stencils) against the same tree with 2-D tiles of
# 16-cell rows (gpu_stencils_rows16: gpu_tile_ghost's `dims == 3` made
# `dims >= 2`), alternating; then jacobi3d's auto heights on the new ghost.
# Run from the repository root with the bundle carried:
#   bash docs/perf/rows-sixteen-2026-11-29/call1.sh
set -uo pipefail
b=gpu-bundle
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $OUT/device.txt
TRAPEZE_PROBE_ROUNDS=5 TRAPEZE_PROBE_ONLY="rows 4),528 apart,vec-trapezoid t16 r2 p64" \
  timeout 170 $b/run.sh gpu_kernel_probe > $OUT/probe-all.txt 2>$OUT/probe-err.txt
echo "probe exit $? at $SECONDS s" | tee -a $OUT/probe-all.txt
grep -E "^(jacobi2d|jacobi3d) |differ" $OUT/probe-all.txt > $OUT/probe.txt
cat $OUT/probe.txt
for round in 1 2 3 4; do
  for build in gpu_stencils gpu_stencils_rows16; do
    echo "== round $round $build" >> $OUT/stencils.txt
    timeout 80 $b/run.sh $build --apps jacobi2d,hotspot --h1-only --rounds 3 --json-out $OUT/$build-$round.json 2>&1 \
      | grep -E "^(jacobi2d|hotspot) " >> $OUT/stencils.txt
  done
  echo "round $round done at $SECONDS s" >> $OUT/stencils.txt
  [ $SECONDS -gt 330 ] && break
done
cat $OUT/stencils.txt
left=$(( 585 - SECONDS ))
timeout $left $b/run.sh gpu_stencils --apps jacobi3d --rounds 3 --json-out $OUT/jacobi3d-auto.json > $OUT/jacobi3d-auto.txt 2>$OUT/jacobi3d-auto-err.txt
echo "jacobi3d auto exit $? at $SECONDS s" >> $OUT/jacobi3d-auto.txt
tail -4 $OUT/jacobi3d-auto.txt
