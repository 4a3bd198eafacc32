#!/usr/bin/env bash
# Session 40, call 3: the committed tree (one-warp and pair PeerWave kernels, mbarriers without back-off, the rule
# "pair kernel when every item has a block"): checks, then the rule against each kernel forced, and the pair kernel
# against the named-barrier build of call 1 (gpu_sweeps_2w).
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
run() {  # label, binary, args...
  local label=$1 b=$2; shift 2
  timeout 60 $R $b "$@" --rounds 2 --json "$out/one.json" > "$out/one.txt" 2>&1
  echo "== $label $b $* exit $?"; grep -E "^sor|^heat" "$out/one.txt"
  { echo "# $label $b $*"; cat "$out/one.json"; } >> "$out/sweeps.jsonl"
}
for r in 1 2; do
  run "16384 x10 r$r" gpu_sweeps --size 16384 --sweeps 10 --widths 32
  run "16384 x10 r$r" gpu_sweeps --size 16384 --sweeps 10 --widths 32 --warps two
  run "16384 x10 r$r" gpu_sweeps_2w --size 16384 --sweeps 10 --widths 32
done
for w in one two; do run "16384 x3" gpu_sweeps --size 16384 --sweeps 3 --widths 32 --warps $w; done
for w in one two; do run "4096 x10" gpu_sweeps --size 4096 --sweeps 10 --widths 32 --warps $w; done
rm -f "$out/one.json" "$out/one.txt"
