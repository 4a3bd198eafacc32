#!/usr/bin/env bash
# Session 39: PeerWave with copies ahead and row 31 published first; checks, then old / v3 / v4 interleaved.
set -u
here=$(cd "$(dirname "$0")" && pwd)
R=$here/run.sh
out=${OUT:-/tmp/out}; mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "== gpu_sweep_test"; $R gpu_sweep_test > "$out/gpu_sweep_test.log" 2>&1; echo "exit $?"; tail -1 "$out/gpu_sweep_test.log"
for app in sor heat2d; do for w in 32 77; do
  echo "$app w$w: $($R $app --size 2000x3001 --sweeps 20 --devices gpu --width $w --verify --json 2>&1 | tail -1 | grep -o '"verified":[a-z]*')"
done; done
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck; do
  STARPU_NCUDA=1 timeout 100 $R $san --tool $tool --error-exitcode 9 --print-limit 20 "$here/bin/gpu_sweep_test" \
    --gtest_filter='GpuSweep.PeerWave*:GpuSweep.CutTiles*' > "$out/$tool.log" 2>&1
  echo "$tool exit $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' "$out/$tool.log" | tr '\n' ' ')"
done
for r in 1 2; do for b in gpu_sweeps_old gpu_sweeps_v3 gpu_sweeps; do
  timeout 60 $R $b --size 16384 --sweeps 10 --widths 32 --rounds 3 --json "$out/$b-$r.json" > "$out/$b-$r.txt" 2>&1
  echo "== $b r$r exit $?"; grep -E "^sor|^heat" "$out/$b-$r.txt"
done; done
