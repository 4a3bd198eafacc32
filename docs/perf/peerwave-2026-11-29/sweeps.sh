#!/usr/bin/env bash
# PeerWave with the next hyper-tile copied ahead (cp.async): checks, then old against new, interleaved.
set -u
here=$(cd "$(dirname "$0")" && pwd)
R=$here/run.sh
out=${OUT:-/tmp/out}; mkdir -p "$out"
echo "== gpu_sweep_test"; $R gpu_sweep_test > "$out/gpu_sweep_test.log" 2>&1; echo "exit $?"; tail -2 "$out/gpu_sweep_test.log"
for app in sor heat2d; do
  for w in 32 77; do echo "$app w$w: $($R $app --size 2000x3001 --sweeps 20 --devices gpu --width $w --verify --json 2>&1 | tail -1)"; done
done
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in ${TOOLS:-}; do
  STARPU_NCUDA=1 timeout 170 $R $san --tool $tool --error-exitcode 9 --print-limit 20 "$here/bin/gpu_sweep_test" \
    --gtest_filter='GpuSweep.PeerWave*:GpuSweep.CutTiles*' > "$out/$tool.log" 2>&1
  echo "$tool exit $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' "$out/$tool.log" | tr '\n' ' ')"
done
for r in 1 2; do
  for b in gpu_sweeps_old gpu_sweeps; do
    timeout 120 $R $b --size 16384 --sweeps 10 --widths 32 --rounds 3 --json "$out/$b-$r.json" > "$out/$b-$r.txt" 2>&1
    echo "== $b 16384 round $r exit $?"; tail -4 "$out/$b-$r.txt"
    timeout 120 $R $b --size 4096 --sweeps 10 --widths 32 --rounds 3 --json "$out/$b-4096-$r.json" > "$out/$b-4096-$r.txt" 2>&1
    echo "== $b 4096 round $r exit $?"; tail -2 "$out/$b-4096-$r.txt"
  done
done
