#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# Issue 10's hyper-tile width model on the GPU: the wavefront GPU tests
# (TESTS=1), then for each size smith-waterman (protein, one pair, GPU alone)
# with --width auto (its first run trains the model and caches it, and is
# not timed) against fixed widths, in interleaved rounds (the order rotates
# each round), medians of the app's own seconds. Table last; JSON lines in $OUT.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
SIZES=${SIZES:-"262144 1048576"}
WIDTHS=${WIDTHS:-"16 24 32 48 64"}
ROUNDS=${ROUNDS:-3}
if [ "${TESTS:-1}" = 1 ]; then
  STARPU_NCPU=2 timeout 300 "$here/run.sh" gpu_wavefront_test > "$out/gpu_wavefront_test.txt" 2>&1
  echo "gpu_wavefront_test: exit $? ($(grep -cE '^\[       OK' "$out/gpu_wavefront_test.txt") OK, $(grep -cE '^\[  FAILED  \] [A-Z]' "$out/gpu_wavefront_test.txt") FAILED)"
fi
for n in $SIZES; do
  sw() { "$here/run.sh" smith-waterman --size "$n" --alphabet protein --devices gpu --json "$@"; }
  sw --width auto > "$out/train-$n.json" 2> "$out/train-$n.err"
  echo "size $n: training run exit $?: $(cat "$out/train-$n.json" | head -c 400)"
  variants=(auto $WIDTHS)
  for ((r = 0; r < ROUNDS; ++r)); do
    for ((i = 0; i < ${#variants[@]}; ++i)); do
      v=${variants[$(( (i + r) % ${#variants[@]} ))]}
      line=$(sw --width "$v" 2>>"$out/runs-$n.err" | tail -1)
      echo "{\"variant\": \"$v\", \"round\": $r, \"run\": $line}" >> "$out/runs-$n.jsonl"
    done
    echo "size $n: round $((r + 1)) of $ROUNDS done"
  done
done
echo "== table"
python3 - "$out" $SIZES <<'PY'
import json, statistics, sys
out, sizes = sys.argv[1], sys.argv[2:]
print(f"{'size':>8} {'variant':>8} {'width':>6} {'median s':>9} {'GCUPS':>8} {'min-max s':>17} {'vs best':>8}")
for n in sizes:
    rows = {}
    for line in open(f"{out}/runs-{n}.jsonl"):
        r = json.loads(line)
        rows.setdefault(r["variant"], []).append(r["run"])
    med = {v: statistics.median(x["seconds"] for x in runs) for v, runs in rows.items()}
    best = min(med[v] for v in med if v != "auto")
    for v, runs in rows.items():
        s = [x["seconds"] for x in runs]
        cells = runs[0]["rows"] * runs[0]["columns"]
        print(f"{n:>8} {v:>8} {runs[0]['hyper_tile_width']:>6} {med[v]:>9.4f} {cells / med[v] / 1e9:>8.1f} "
              f"{min(s):>8.4f}-{max(s):<8.4f} {best / med[v]:>8.3f}")
PY
