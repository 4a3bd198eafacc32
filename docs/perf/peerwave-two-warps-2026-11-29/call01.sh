#!/usr/bin/env bash
# Session 40, call 1: the committed PeerWave (v4, never run) and the two-warp PeerWave (two-warps.patch):
# checks, then old (915d2d5) / v3 / v4 / two warps interleaved, 16384^2, 10 sweeps, width 32.
set -u
here=$(cd "$(dirname "$0")" && pwd)
R=$here/run.sh
out=${OUT:-/tmp/out}; mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for t in gpu_sweep_test gpu_sweep_test_2w; do
  timeout 100 $R $t > "$out/$t.log" 2>&1; echo "== $t exit $?: $(grep -E '^\[  (PASSED|FAILED) ' "$out/$t.log" | tr '\n' ' ')"
done
for app in sor heat2d; do for w in 32 77; do
  echo "$app w$w: $($R $app --size 2000x3001 --sweeps 20 --devices gpu --width $w --verify --json 2>&1 | tail -1 | grep -o '"verified":[a-z]*')"
done; done
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for t in gpu_sweep_test gpu_sweep_test_2w; do for tool in memcheck racecheck; do
  STARPU_NCUDA=1 timeout 100 $R $san --tool $tool --error-exitcode 9 --print-limit 20 "$here/bin/$t" \
    --gtest_filter='GpuSweep.PeerWave*:GpuSweep.CutTiles*' > "$out/$t-$tool.log" 2>&1
  echo "$t $tool exit $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' "$out/$t-$tool.log" | tr '\n' ' ')"
done; done
for r in 1 2; do for b in gpu_sweeps_old gpu_sweeps_v3 gpu_sweeps gpu_sweeps_2w; do
  timeout 60 $R $b --size 16384 --sweeps 10 --widths 32 --rounds 3 --json "$out/$b-$r.json" > "$out/$b-$r.txt" 2>&1
  echo "== $b r$r exit $?"; grep -E "^sor|^heat" "$out/$b-$r.txt"
done; done
