#!/usr/bin/env bash
# Session 40, call 4: the tree with the two-warp kernel alone (one-warp kernel removed): checks, then
# gpu_sweeps at widths 32 and 64, 16384^2, 10 sweeps, 3 rounds, and 4096^2.
set -u
here=$(cd "$(dirname "$0")" && pwd)
R=$here/run.sh
out=${OUT:-/tmp/out}; mkdir -p "$out"
timeout 120 $R gpu_sweep_test > "$out/test.log" 2>&1; echo "== gpu_sweep_test exit $?: $(grep -E '^\[  (PASSED|FAILED) ' "$out/test.log" | tr '\n' ' ')"
for app in sor heat2d; do for w in 32 77; do
  echo "$app w$w: $($R $app --size 2000x3001 --sweeps 20 --devices gpu --width $w --verify --json 2>&1 | tail -1 | grep -o '"verified":[a-z]*')"
done; done
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck; do
  STARPU_NCUDA=1 timeout 150 $R $san --tool $tool --error-exitcode 9 --print-limit 20 "$here/bin/gpu_sweep_test" \
    --gtest_filter='GpuSweep.PeerWave*:GpuSweep.CutTiles*' > "$out/$tool.log" 2>&1
  echo "$tool exit $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' "$out/$tool.log" | tr '\n' ' ')"
done
timeout 150 $R gpu_sweeps --size 16384 --sweeps 10 --widths 32,64 --rounds 3 --json "$out/gpu_sweeps-16384.json" > "$out/gpu_sweeps-16384.txt" 2>&1
echo "== 16384 exit $?"; tail -5 "$out/gpu_sweeps-16384.txt"
timeout 100 $R gpu_sweeps --size 4096 --sweeps 10 --widths 32,64 --rounds 3 --json "$out/gpu_sweeps-4096.json" > "$out/gpu_sweeps-4096.txt" 2>&1
echo "== 4096 exit $?"; tail -5 "$out/gpu_sweeps-4096.txt"
