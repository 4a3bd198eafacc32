#!/usr/bin/env bash
# How the CPU height model's choice compares with the best height, for every
# app at an in-cache size and at a size far beyond the last-level cache
# (docs/PERF.md, issue 9): each case is the app's own --sweep-height (seven
# rounds of every height in random order, medians), then a fresh head-to-head
# of the chosen height against the sweep's best (interleaved rounds, medians).
# One JSON line per case in $OUT/height_check.jsonl, a table last.
#   scripts/height_check.sh [in-cache|far|all]
set -euo pipefail
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${OUT:-$repo_root/build/perf}
part=${1:-all}
case $part in in-cache|far|all) ;; *) echo "height_check.sh: unknown part '$part' (in-cache, far or all)" >&2; exit 2 ;; esac
mkdir -p "$out"
bash "$repo_root/scripts/build.sh" >/dev/null
export STARPU_SILENT=1
apps="$repo_root/build/apps"
results="$out/height_check.jsonl"
: >"$results"
check() {  # label app size steps heights
  local label=$1 app=$2 size=$3 steps=$4 heights=$5
  echo "$label: $app --size $size --steps $steps --sweep-height $heights" >&2
  "$apps/$app" --size "$size" --steps "$steps" --sweep-height "$heights" --sweep-csv "$out/check-$app-$label.csv" --json \
    | python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); d["case"]=sys.argv[1]; d.pop("sweep"); print(json.dumps(d))' "$label" \
    | tee -a "$results" >&2
}
if [ "$part" != far ]; then
  check in-cache jacobi2d 1024 256 1:32
  check in-cache hotspot 1024 1000 1:32
  check in-cache life 1024 256 1:32
  check in-cache jacobi3d 96 128 1:16
  check in-cache pathfinder 100000 256 1:32
fi
if [ "$part" != in-cache ]; then
  check far jacobi2d 16384 32 1:16
  check far hotspot 16384 32 1:16
  check far life 32768 32 1:16
  check far jacobi3d 512 16 1:8
  check far pathfinder 16777216 32 1:32
fi
python3 - "$results" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print(f"{'case':<9} {'app':<10} {'size':>13} {'steps':>5} {'tile':>12} {'auto h':>6} {'best h':>6} {'sweep':>6} {'head-to-head':>12}")
for r in rows:
    h2h = f"{r['chosen_vs_best_head_to_head']:.3f}" if r['head_to_head_rounds'] else "same h"
    print(f"{r['case']:<9} {r['app']:<10} {r['size']:>13} {r['steps']:>5} {r['tile']:>12} {r['chosen_height']:>6} "
          f"{r['best_height']:>6} {r['chosen_vs_best']:6.3f} {h2h:>12}")
print("(sweep: auto over best in the sweep's own medians; head-to-head: fresh interleaved rounds, auto over best)")
PY
