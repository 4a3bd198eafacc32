#!/usr/bin/env bash
# Call 6 (nvidia-h200), session 42: jacobi3d by hand in float4s, a thread's
# rows over several planes with every load issued at once (gpu_kernel_probe's
# float4-planes), beside the runtime's 16-byte 3-D step and the float4 copies
# walking planes, 7 interleaved rounds: does reading less through L2 without
# a walk lift the H200's 3-D single step (0.79 in call 3)?
# Run from the repository root with the bundle carried: bash docs/perf/turnaround-knobs-2026-11-29/call6.sh
set -uo pipefail
b=gpu-bundle
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $OUT/device.txt
TRAPEZE_PROBE_ROUNDS=7 TRAPEZE_PROBE_ONLY="float4-planes,w1x4 r2 p1,w1x4 r4 p1,copy-planes float4, 1 plane,copy-planes float4, 4 planes" \
  timeout 300 $b/run.sh gpu_kernel_probe 2>$OUT/probe-err.txt | grep -vE "round [0-9]+ of" > $OUT/probe.txt
echo "exit ${PIPESTATUS[0]}" >> $OUT/probe.txt
tail -3 $OUT/probe-err.txt
grep -E "jacobi3d|xroof|bandwidth|exit" $OUT/probe.txt
