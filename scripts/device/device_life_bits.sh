#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# Issue 9, Life: bit-parallel Life (life --bits, 32 cells a word) on one GPU
# against byte-cell Life's roofline. First the GPU equality tests of both Life
# stencils and the sanitizers on the small cases; then gpu_stencils for life
# and life-bits (plain loop, h = 1, auto, best of a sweep, head to head);
# then the app itself, byte cells against --bits on the same board, whose
# checksums of the written boards must match. Table last; logs in $OUT.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
nvidia-smi -L
export STARPU_NCUDA=1
table=""
add() { table+="$1"$'\n'; echo "$1"; }
{
  STARPU_NCPU=2 timeout 200 "$here/run.sh" gpu_equality_test --gtest_filter='GpuEquality.Life*:GpuEquality.LargeTiles*'
  echo "gpu_equality_test exit $?"
  sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  for tool in memcheck racecheck; do
    echo "== compute-sanitizer --tool $tool"
    STARPU_NCPU=2 timeout 150 "$here/run.sh" "$sanitizer" --tool "$tool" --error-exitcode 9 --print-limit 20 \
      "$here/bin/gpu_equality_test" --gtest_filter='GpuSanitizer.SmallCasesOfEveryApp'
    echo "$tool exit $?"
  done
} > "$out/gpu_tests.txt" 2>&1
add "gpu tests: $(grep -E 'exit [0-9]+' "$out/gpu_tests.txt" | tr '\n' ' ')"
add "  ($(grep -cE '^\[       OK' "$out/gpu_tests.txt") OK, $(grep -cE '^\[  FAILED  \] [A-Z]' "$out/gpu_tests.txt") FAILED lines; sanitizer: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/gpu_tests.txt" | tr '\n' ' '))"
timeout "${STENCILS_TIMEOUT:-300}" "$here/run.sh" gpu_stencils --apps life,life-bits --rounds 3 \
  --json-out "$out/gpu_stencils.json" > "$out/stencils.txt" 2>&1
add "gpu_stencils: exit $?"
table+="$(tail -6 "$out/stencils.txt")"$'\n'
# The app: the same board as bytes and as bits. 2048 x 2048, 200 steps,
# on the GPU at auto heights: the written boards must be equal. Then 32768 x
# 32768, 512 steps, timed, interleaved.
for variant in bytes bits; do
  flag=; [ "$variant" = bits ] && flag=--bits
  timeout 60 "$here/run.sh" life --size 2048x2048 --steps 200 --devices gpu $flag --output "$out/life-$variant.txt" \
    >/dev/null 2>>"$out/app.err"
done
cmp -s "$out/life-bytes.txt" "$out/life-bits.txt" && add "2048x2048, 200 steps on the GPU: boards written identical" \
  || add "2048x2048, 200 steps on the GPU: boards DIFFER"
rm -f "$out/life-bytes.txt" "$out/life-bits.txt"
for variant in bytes bits bytes bits; do
  flag=; [ "$variant" = bits ] && flag=--bits
  line=$(timeout 120 "$here/run.sh" life --size 32768x32768 --steps 512 --devices gpu --json $flag \
           2>>"$out/app.err" | grep '^{' | tail -1)
  echo "$line" >> "$out/life_app.jsonl"
  add "life $variant: $(echo "$line" | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["size"], "h", r["height"], "k", r["kernel_height"], "seconds", round(r["seconds"], 3), "gcups", round(r["gcups"], 1))' 2>/dev/null || echo "no report")"
done
echo "== table"; printf '%s' "$table"
