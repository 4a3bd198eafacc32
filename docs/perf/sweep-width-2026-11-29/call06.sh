#!/usr/bin/env bash
# Session 40, call 6: --width auto for the in-place sweeps (trapeze/sweep_width_choice.hpp): gpu_sweep_test,
# then sor 16384^2 (64 sweeps, one task) and heat2d 4096^2 (64 sweeps), auto against fixed widths,
# interleaved rounds (the first auto run trains; the cache answers after). Medians of the apps' "seconds".
set -u
here=$(cd "$(dirname "$0")" && pwd)
R=$here/run.sh
out=${OUT:-/tmp/out}; mkdir -p "$out"
timeout 90 $R gpu_sweep_test > "$out/test.log" 2>&1; echo "== gpu_sweep_test exit $?: $(grep -E '^\[  (PASSED|FAILED) ' "$out/test.log" | tr '\n' ' ')"
run() {  # app size width round
  local line
  line=$(timeout 40 $R $1 --size $2 --sweeps 64 --devices gpu --width $3 --json 2>/dev/null | tail -1)
  echo "{\"app\":\"$1\",\"size\":$2,\"asked\":\"$3\",\"round\":$4,\"run\":$line}" >> "$out/h2h.jsonl"
  echo "$1 $2 $3 r$4: $(echo "$line" | grep -oE '"(hyper_tile_width|width_trained|seconds|gcups)":[^,]*' | tr '\n' ' ')"
}
for r in 1 2 3; do for w in auto 32 48 64 96; do run sor 16384 $w $r; done; done
for r in 1 2 3; do for w in auto 32 64 128; do run heat2d 4096 $w $r; done; done
python3 - "$out/h2h.jsonl" <<'PY'
import json, sys, statistics
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
for app in ("sor", "heat2d"):
    by = {}
    for r in rows:
        if r["app"] == app and r["run"] and not (r["asked"] == "auto" and r["run"].get("width_trained")):
            by.setdefault(r["asked"], []).append(r["run"]["seconds"])
    if not by: continue
    med = {k: statistics.median(v) for k, v in by.items()}
    best = min((v, k) for k, v in med.items() if k != "auto")
    chosen = [r["run"]["hyper_tile_width"] for r in rows if r["app"] == app and r["asked"] == "auto" and r["run"]]
    print(f"{app}: auto chose {sorted(set(chosen))}; medians (s): " + ", ".join(f"{k} {v:.4f} (n={len(by[k])})" for k, v in med.items()))
    if "auto" in med: print(f"{app}: best fixed {best[1]} {best[0]:.4f} s; auto at {best[0] / med['auto']:.3f} of the best")
PY
