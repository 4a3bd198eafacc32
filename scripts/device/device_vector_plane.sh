#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# The 16-byte 3-D single step's run (codelets/cuda/vector_plane_kernel.cuh,
# docs/PERF.md 2026-11-27): device_final_gpu.sh with the equality tests of
# 3-D and of rows of four cells and the sanitizers, the probe's 16-byte 3-D
# variants against the register-streaming step, and jacobi3d through the
# runtime against the plain loop. Logs in $OUT, a table last.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TESTS=${TESTS:-equality} EQUALITY_FILTER=${EQUALITY_FILTER:-GpuEquality.SingleStepsOnRowsOfFourCells:GpuEquality.Jacobi3D:GpuEquality.LargeTilesManyBlocks} \
  PROBE_ONLY=${PROBE_ONLY:-vector-plane,rows 516,r8 p64 b2 a1} PROBE_ROUNDS=${PROBE_ROUNDS:-7} \
  APPS=${APPS:-jacobi3d} exec "$here/device_final_gpu.sh"
