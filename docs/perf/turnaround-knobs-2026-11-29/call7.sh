#!/usr/bin/env bash
# Call 7 (nvidia-h200), session 42: the runtime's 16-byte 3-D step with a
# thread's whole window loaded at once (VectorPlanePolicy's Window), bit for
# bit against the register kernel, and its speed beside the default and the
# by-hand 4 x 4 window (call 6: 0.891), 7 interleaved rounds.
# Run from the repository root with the bundle carried: bash docs/perf/turnaround-knobs-2026-11-29/call7.sh
set -uo pipefail
b=gpu-bundle
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $OUT/device.txt
TRAPEZE_PROBE_ROUNDS=7 TRAPEZE_PROBE_ONLY="window,w1x4 r2 p1,4 rows x 4 planes,copy-planes float4" \
  timeout 300 $b/run.sh gpu_kernel_probe 2>$OUT/probe-err.txt | grep -vE "round [0-9]+ of" > $OUT/probe.txt
echo "exit ${PIPESTATUS[0]}" >> $OUT/probe.txt
tail -3 $OUT/probe-err.txt
grep -E "jacobi3d|xroof|bandwidth|exit|differ" $OUT/probe.txt
