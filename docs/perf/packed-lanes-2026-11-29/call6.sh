#!/usr/bin/env bash
# Call 6 (nvidia-h200), session 43: does the 3-D step need rows on 32-byte
# sectors (call 3: the by-hand kernel 0.83 on rows 520 apart, 0.89 on
# 128-byte-aligned rows)? The runtime's window with all 32 lanes committing
# (VectorPlanePolicy's FullWarps: the first and last lanes load the cells
# beside the warp) on the tiles' rows (516 apart) and on rows on sectors (528
# apart, the x ghost 8) and lines (576, 32), beside the by-hand kernel on the
# same rows, and bit for bit against the register kernel.
# Run from the repository root with the bundle carried: bash docs/perf/packed-lanes-2026-11-29/call6.sh
set -uo pipefail
b=gpu-bundle
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $OUT/device.txt
TRAPEZE_PROBE_ROUNDS=5 TRAPEZE_PROBE_ONLY="w1x4 r3 p4 window,full,sectors,lines,520 apart,4 rows x 4 planes aligned,1 plane a thread" \
  timeout 300 $b/run.sh gpu_kernel_probe 2>$OUT/probe-err.txt | grep -E "jacobi3d  (vector-plane|copy-planes|float4-planes)|differ" > $OUT/probe.txt
echo "probe exit ${PIPESTATUS[0]} at $SECONDS s" | tee -a $OUT/probe.txt
cat $OUT/probe.txt
