#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# Issue 9: the 3-D register trapezoid (plane_register_trapezoid_kernel.cuh).
# The kernels alone (gpu_kernel_probe: every variant checked bit for bit
# against k single steps), the GPU tests of the 3-D apps, then jacobi3d
# through the runtime (gpu_stencils: plain loop, h = 1, auto, best of a sweep).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
table=""
add() { table+="$1"$'\n'; echo "$1"; }
if [ "${PROBE:-1}" = 1 ]; then
  timeout "${PROBE_TIMEOUT:-200}" "$here/run.sh" gpu_kernel_probe > "$out/probe.txt" 2>&1; add "gpu_kernel_probe: exit $?"
  table+="$(grep -E '^(stencil|jacobi3d|jacobi2d|kernels alone)' "$out/probe.txt")"$'\n'
fi
if [ -n "${NCU_ONLY:-}" ]; then
  # One launch of the named register-trapezoid variant under Nsight Compute.
  ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  TRAPEZE_PROBE_ONLY="$NCU_ONLY" TRAPEZE_PROBE_ROUNDS=1 timeout 240 "$ncu" --section SpeedOfLight --section Occupancy \
    --section WarpStateStats --section LaunchStats --section MemoryWorkloadAnalysis -k regex:plane_register_trapezoid \
    --launch-count 1 "$here/run.sh" gpu_kernel_probe > "$out/ncu.txt" 2>&1
  add "ncu: exit $?"
  table+="$(grep -E 'Throughput|Occupancy|Stall|Warp Cycles|Registers|Issued|Eligible|Active Warps|Duration|Bank' "$out/ncu.txt" | head -40)"$'\n'
fi
if [ "${TESTS:-1}" = 1 ]; then
  STARPU_NCPU=2 timeout "${TEST_TIMEOUT:-240}" "$here/run.sh" gpu_equality_test \
    --gtest_filter="${TEST_FILTER:-GpuEquality.Jacobi3D:GpuEquality.LargeTiles*:GpuEquality.Himeno:GpuSanitizer.*}" > "$out/equality.txt" 2>&1
  add "gpu_equality_test: exit $? ($(grep -E '^\[  PASSED|^\[  FAILED' "$out/equality.txt" | tr '\n' ' '))"
fi
if [ "${STENCILS:-1}" = 1 ]; then
  timeout "${STENCILS_TIMEOUT:-240}" "$here/run.sh" gpu_stencils --apps "${APPS:-jacobi3d}" --rounds "${ROUNDS:-3}" > "$out/stencils.txt" 2>&1
  add "gpu_stencils: exit $?"
  table+="$(tail -6 "$out/stencils.txt")"$'\n'
fi
echo "== table"; printf '%s' "$table"
