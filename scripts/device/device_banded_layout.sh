#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# Issue 10, layouts: seed 004's banded (hybrid row/diagonal-major) layout of
# wavefront tiles on one GPU. First the GPU tests of the conversions and of
# the runs that use them (summed-area table and integral histogram, banded
# and row-major, every cell against the reference) and the sanitizers on
# them; then the conversions' bandwidth against the copy (gpu_layouts, the
# banded rows); then the apps with --layout row against banded, interleaved,
# their totals compared. Table last; logs and JSON in $OUT.
#   ROUNDS (3), SAT (16384x16384), HIST (8192x8192), BINS (16)
# It needs gpu_layout_test, gpu_wavefront_test, gpu_layouts, sat and inthist
# in the bundle (BUNDLE_SKIP may leave the others out to stay under 64 MiB).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
rounds=${ROUNDS:-3}; sat_size=${SAT:-16384x16384}; hist_size=${HIST:-8192x8192}; bins=${BINS:-16}
nvidia-smi -L
export STARPU_NCUDA=1
table=""
add() { table+="$1"$'\n'; echo "$1"; }
{
  STARPU_NCPU=2 timeout 240 "$here/run.sh" gpu_layout_test --gtest_filter='GpuLayout.Banded*'
  echo "gpu_layout_test exit $?"
  STARPU_NCPU=2 timeout 300 "$here/run.sh" gpu_wavefront_test \
    --gtest_filter='GpuWavefront.SummedAreaTableEveryCell:GpuWavefront.IntegralHistogram*:GpuWavefront.AutoWidth*'
  echo "gpu_wavefront_test exit $?"
  sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  for tool in memcheck racecheck; do
    echo "== compute-sanitizer --tool $tool"
    STARPU_NCPU=2 timeout 200 "$here/run.sh" "$sanitizer" --tool "$tool" --error-exitcode 9 --print-limit 20 \
      "$here/bin/gpu_wavefront_test" --gtest_filter='GpuWavefront.IntegralHistogram*'
    echo "$tool exit $?"
  done
} > "$out/gpu_tests.txt" 2>&1
add "gpu tests: $(grep -E 'exit [0-9]+' "$out/gpu_tests.txt" | tr '\n' ' ')"
add "  ($(grep -cE '^\[       OK' "$out/gpu_tests.txt") OK, $(grep -cE '^\[  FAILED  \] [A-Z]' "$out/gpu_tests.txt") FAILED lines; sanitizer: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/gpu_tests.txt" | tr '\n' ' '))"
TRAPEZE_LAYOUTS_ONLY=banded timeout 200 "$here/run.sh" gpu_layouts --rounds 5 --json "$out/gpu_layouts.json" \
  > "$out/layouts.txt" 2>&1
add "gpu_layouts (banded): exit $?"
table+="$(grep -E 'copy bandwidth|banded' "$out/layouts.txt")"$'\n'
# The apps, whole runs (uploads, conversions, downloads included), GPU alone,
# auto width trained by the first run of each (not timed), then interleaved.
app_line() {  # app size layout [extra...]
  local app=$1 size=$2 layout=$3; shift 3
  timeout 300 "$here/run.sh" "$app" --size "$size" --devices gpu --tile auto --layout "$layout" --json "$@" \
    2>>"$out/app.err" | grep '^{' | tail -1
}
for app in sat inthist; do
  size=$sat_size; extra=(); [ "$app" = inthist ] && { size=$hist_size; extra=(--bins "$bins"); }
  v=$(app_line "$app" 999x777 banded "${extra[@]}" --verify); echo "$v" >> "$out/apps.jsonl"
  add "$app 999x777 banded --verify: $(echo "$v" | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["verified"], r["layout"])' 2>/dev/null || echo "no report")"
  app_line "$app" "$size" banded "${extra[@]}" > /dev/null  # trains the width model
  for ((r = 0; r < rounds; ++r)); do
    for layout in row banded; do
      line=$(app_line "$app" "$size" "$layout" "${extra[@]}")
      echo "$line" >> "$out/apps.jsonl"
    done
  done
done
add "$(python3 - "$out/apps.jsonl" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith('{')]
out = ["app      size          layout   runs  median s   min-max s        G cells/s  total"]
for app in ("sat", "inthist"):
    timed = [r for r in rows if r["app"] == app and not r.get("verified")]
    totals = {json.dumps(r.get("total", r.get("histogram"))) for r in timed}
    med = {}
    for layout in ("row", "banded"):
        rs = [r for r in timed if r["layout"] == layout]
        if not rs: continue
        s = [r["seconds"] for r in rs]; med[layout] = statistics.median(s)
        out.append(f"{app:8} {rs[0]['rows']}x{rs[0]['columns']:<8} {layout:8} {len(rs):4}  {med[layout]:8.4f}  {min(s):.4f}-{max(s):.4f}  {statistics.median([r['gcups'] for r in rs]):9.1f}  {'equal' if len(totals) == 1 else 'DIFFER'}")
    if len(med) == 2: out.append(f"{app}: row / banded time = {med['row'] / med['banded']:.3f}")
print("\n".join(out))
PY
)"
echo "== table"; printf '%s' "$table"
