#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# In-place sweeps on the GPU (issue 10): the GPU sweep tests (TESTS=0 leaves
# them out, SANITIZE=1 adds compute-sanitizer), the PeerWave kernel against
# the one-launch-per-wave baseline (gpu_sweeps), and sor/heat2d through
# Trapeze (one tile, one task a sweep) verified, then timed. A table last.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
run=$here/run.sh
out=${OUT:-/tmp/out}; mkdir -p "$out"; cd "$out"
nvidia-smi -L
if [ "${TESTS:-1}" = 1 ]; then
  STARPU_NCPU=2 timeout 200 "$run" gpu_sweep_test > gpu_sweep_test.log 2>&1; echo "gpu_sweep_test rc=$?"
  grep -E "^\[  (PASSED|FAILED|SKIPPED|  OK) |Failure|Expected|differ" gpu_sweep_test.log | head -12
fi
if [ "${SANITIZE:-0}" = 1 ]; then
  sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  for tool in memcheck racecheck; do
    STARPU_NCPU=2 timeout 240 "$run" "$sanitizer" --tool $tool --error-exitcode 9 --print-limit 20 "$here/bin/gpu_sweep_test" \
      --gtest_filter='GpuSweep.PeerWave*' > $tool.log 2>&1; echo "$tool rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED" $tool.log | head -4
  done
fi
field() { python3 -c "import json,sys; d=json.loads(sys.stdin.read().splitlines()[-1]); print(d['$1'])" 2>/dev/null || echo nan; }
for app in sor heat2d; do
  echo "$app 2000x3001 verified on the GPU: $(timeout 120 "$run" $app --size 2000x3001 --sweeps 20 --verify --json | field verified)"
done
timeout ${BENCH_TIMEOUT:-300} "$run" gpu_sweeps --size ${SIZE:-16384} --sweeps ${SWEEPS:-10} --widths ${WIDTHS:-64,128,256} \
  --rounds ${ROUNDS:-5} --json gpu_sweeps.json > gpu_sweeps.txt 2> gpu_sweeps.err; echo "gpu_sweeps rc=$?"; tail -3 gpu_sweeps.err
# Through Trapeze: the whole grid as one tile, one task a sweep (includes the copies up and down PCIe).
for app in sor heat2d; do
  for sweeps in 10 50; do
    echo "$app ${SIZE:-16384}^2 $sweeps sweeps via Trapeze: $(timeout 120 "$run" $app --size ${SIZE:-16384} --sweeps $sweeps --json | python3 -c "import json,sys; d=json.loads(sys.stdin.read().splitlines()[-1]); print('seconds', round(d['seconds'],4), 'gcups', round(d['gcups'],1), 'tiles', d['tiles'], 'cuda', d['cuda_workers'])" 2>&1)"
  done
done
cat gpu_sweeps.txt
