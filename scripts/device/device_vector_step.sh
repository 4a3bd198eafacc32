#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# The 16-byte single step's run (codelets/cuda/vector_step_kernel.cuh,
# docs/PERF.md 2026-11-27): device_final_gpu.sh with the equality suite and
# its sanitizers, the probe's copies and 16-byte variants, and jacobi2d and
# hotspot through the runtime against the plain loop. Logs in $OUT, a table last.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TESTS=${TESTS:-equality} PROBE_ONLY=${PROBE_ONLY:-copy,vector-step,by hand} PROBE_ROUNDS=${PROBE_ROUNDS:-7} \
  APPS=${APPS:-jacobi2d,hotspot} exec "$here/device_final_gpu.sh"
