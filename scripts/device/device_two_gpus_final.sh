#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# One call on a 2-GPU machine (issue 12): the GPU equality and wavefront
# suites with both GPUs under the default policy (trapeze-owner with two GPUs),
# then 1 GPU against 2 MPI ranks (a GPU each), then the policies on 2 GPUs.
# Env: ROUNDS (2), POLICY_ROUNDS (2), POLICY_J2 (32768x32768:1024).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
export STARPU_NCPU=${STARPU_NCPU:-2}
start=$(date +%s)
timeout 200 "$here/run.sh" gpu_equality_test --gtest_filter=-GpuSanitizer.* > "$out/gpu_equality_2gpus.txt" 2>&1; eq=$?
timeout 100 "$here/run.sh" gpu_wavefront_test > "$out/gpu_wavefront_2gpus.txt" 2>&1; wf=$?
unset STARPU_NCPU
echo "gpu_equality_test on 2 GPUs: rc $eq ($(grep -E '^\[  (PASSED|FAILED) ' "$out/gpu_equality_2gpus.txt" | tr '\n' ' ')), $(( $(date +%s) - start )) s"
echo "gpu_wavefront_test on 2 GPUs: rc $wf ($(grep -E '^\[  (PASSED|FAILED) ' "$out/gpu_wavefront_2gpus.txt" | tr '\n' ' '))"
grep -E "^\[  FAILED  \]" "$out"/gpu_*_2gpus.txt | head -5
J2=${J2:-49152x49152:1024} J3=${J3:-1024x1024x1024:512} ROUNDS=${ROUNDS:-2} GPU_COUNTS=1 MPI=1 \
  POLICY_ROUNDS=${POLICY_ROUNDS:-2} POLICY_J2=${POLICY_J2:-32768x32768:1024} "$here/device_two_gpus.sh" 2>&1 | grep -v "^round\|perfmodels"
