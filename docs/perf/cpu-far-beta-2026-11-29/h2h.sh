#!/usr/bin/env bash
# Session 38: heights head to head after the cell-cost probe's chunks follow
# the runtime's rule. Interleaved rounds; whole-run seconds and, for
# pathfinder, stepping seconds after 8 warm-up steps.
export STARPU_SILENT=1 TRAPEZE_HOME=${TRAPEZE_HOME:-/tmp/beta/home-new}
apps=${APPS:-/work/main/build/apps}
rounds=${1:-9}
out=${2:-/tmp/beta/h2h/runs.jsonl}; : > "$out"
for r in $(seq $rounds); do
  for h in 32 6 24 16; do
    line=$("$apps/pathfinder" --size 16777216 --steps 40 --warmup-steps 8 --height $h --json | grep '^{')
    echo "{\"case\": \"pathfinder far h $h\", \"round\": $r, \"report\": $line}" >> "$out"
  done
  for h in 1 2; do
    line=$("$apps/jacobi3d" --size 512 --steps 16 --height $h --json | grep '^{')
    echo "{\"case\": \"jacobi3d far h $h\", \"round\": $r, \"report\": $line}" >> "$out"
  done
done
python3 - "$out" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
by = {}
for r in rows: by.setdefault(r["case"], []).append(r["report"])
for c, rep in by.items():
    s = sorted(x["seconds"] for x in rep)
    st = [x["stepping_seconds"] for x in rep if x.get("stepping_seconds")]
    print(f"{c:22} n {len(s)} median s {statistics.median(s):.4f} ({s[0]:.3f}-{s[-1]:.3f})"
          + (f"  stepping median {statistics.median(st):.4f} ({min(st):.3f}-{max(st):.3f})" if st else ""))
PY
