#!/usr/bin/env bash
# Call 3 (nvidia-h200), session 42: the single steps on the H200, whose L2 is
# the H100's and whose DRAM is 1.4x faster (jacobi2d's plain loop at 0.84 of
# the copy roofline, jacobi3d's at 0.75, against 0.99 and 0.875 on the H100).
# gpu_kernel_probe, 7 interleaved rounds: the 2-D 16-byte step with 1, 2
# (the default), 4 and 8 rows a thread, the float4 steps by hand with as many,
# the float4 copy; the 3-D 16-byte step's policies and the walking copies.
# Run from the repository root with the bundle carried: bash docs/perf/turnaround-knobs-2026-11-29/call3.sh
set -uo pipefail
b=gpu-bundle
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader | tee $OUT/device.txt
TRAPEZE_PROBE_ROUNDS=7 TRAPEZE_PROBE_ONLY="vector-step,by hand,float4 a thread,vector-plane,copy-planes" \
  timeout 400 $b/run.sh gpu_kernel_probe > $OUT/probe.txt 2> $OUT/probe-err.txt
echo "exit $?" >> $OUT/probe.txt
tail -5 $OUT/probe-err.txt
grep -vE "round [0-9]+ of" $OUT/probe.txt | tail -70
