#!/usr/bin/env bash
# Session 31: pathfinder far beyond the cache (16M columns, 32 steps, 2 CPU
# workers), the automatic height of this build against fixed heights,
# interleaved rounds, medians. Usage: pathfinder_far.sh BUILD_DIR OUT_DIR [ROUNDS]
set -uo pipefail
build=$1; out=$2; rounds=${3:-5}
mkdir -p "$out"; rows=$out/runs.jsonl; : > "$rows"
export STARPU_SILENT=1 TRAPEZE_HOME=$out/home
run() {  # label args...
  local label=$1; shift
  local line
  line=$("$build/apps/pathfinder" --size 16777216 --steps 32 --devices cpu --json "$@" 2>/dev/null | grep '^{' | tail -1)
  echo "{\"case\": \"$label\", \"report\": ${line:-null}}" >> "$rows"
}
run warm-up   # profiles the model once (cached in TRAPEZE_HOME)
: > "$rows"
for round in $(seq "$rounds"); do
  run auto
  for h in 6 24; do run "h $h" --height $h; done
done
python3 - "$rows" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:
    if r["report"]: by.setdefault(r["case"], []).append(r["report"])
med = {c: statistics.median(x["seconds"] for x in rep) for c, rep in by.items()}
best = min((m, c) for c, m in med.items() if c != "auto")
print(f"{'case':6} {'h':>3} {'n':>2} {'median s':>9} {'spread':>13} {'best/this':>9}")
for c, rep in by.items():
    s = sorted(x["seconds"] for x in rep)
    print(f"{c:6} {rep[0]['height']:3} {len(s):2} {med[c]:9.4f} {s[0]:6.3f}-{s[-1]:6.3f} {best[0] / med[c]:9.3f}")
print(f"best fixed height: {best[1]}")
PY
