#!/usr/bin/env bash
# Session 40, call 2: the two-warp PeerWave with mbarriers (2wm: racecheck follows them), checks; then
# one warp (v4, committed) / one warp + 64 ns sleep in the spin (1s) / two warps, named barriers (2w) /
# two warps, mbarriers (2wm) / 2wm + sleep (2wms), interleaved; then fewer items (3 sweeps; 4096^2).
set -u
here=$(cd "$(dirname "$0")" && pwd)
R=$here/run.sh
out=${OUT:-/tmp/out}; mkdir -p "$out"
timeout 100 $R gpu_sweep_test_2wm > "$out/test.log" 2>&1; echo "== gpu_sweep_test_2wm exit $?: $(grep -E '^\[  (PASSED|FAILED) ' "$out/test.log" | tr '\n' ' ')"
for app in sor heat2d; do for w in 32 77; do
  echo "${app}_2wm w$w: $($R ${app}_2wm --size 2000x3001 --sweeps 20 --devices gpu --width $w --verify --json 2>&1 | tail -1 | grep -o '"verified":[a-z]*')"
done; done
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck; do
  STARPU_NCUDA=1 timeout 100 $R $san --tool $tool --error-exitcode 9 --print-limit 20 "$here/bin/gpu_sweep_test_2wm" \
    --gtest_filter='GpuSweep.PeerWave*:GpuSweep.CutTiles*' > "$out/$tool.log" 2>&1
  echo "2wm $tool exit $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' "$out/$tool.log" | tr '\n' ' ')"
done
run() {  # label, binary, args...
  local label=$1 b=$2; shift 2
  timeout 60 $R $b "$@" --rounds 2 --json "$out/one.json" > "$out/one.txt" 2>&1
  echo "== $label $b exit $?"; grep -E "^sor|^heat" "$out/one.txt"
  { echo "# $label $b $*"; cat "$out/one.json"; } >> "$out/sweeps.jsonl"
}
for r in 1 2; do for b in gpu_sweeps gpu_sweeps_1s gpu_sweeps_2w gpu_sweeps_2wm gpu_sweeps_2wms; do
  run "16384 x10 r$r" $b --size 16384 --sweeps 10 --widths 32
done; done
for r in 1 2; do for b in gpu_sweeps gpu_sweeps_1s gpu_sweeps_2wm gpu_sweeps_2wms; do
  run "16384 x3 r$r" $b --size 16384 --sweeps 3 --widths 32
  run "4096 x10 r$r" $b --size 4096 --sweeps 10 --widths 32
done; done
rm -f "$out/one.json" "$out/one.txt"
