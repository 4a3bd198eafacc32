#!/usr/bin/env bash
# usage: [APP=pathfinder] h2h.sh BUILD_APPS SIZE STEPS WARMUP ROUNDS "h1 h2 ..." OUT.jsonl  (auto allowed as a height)
apps=$1; size=$2; steps=$3; warm=$4; rounds=$5; heights=$6; out=$7
export STARPU_SILENT=1
: > "$out"
reversed=$(echo $heights | tr ' ' '\n' | tac | tr '\n' ' ')
for r in $(seq "$rounds"); do
  # The order flips every round: the first run of a round was slower on the
  # EPYC VM (session 39), which a fixed order charges to one height.
  order=$heights; [ $((r % 2)) -eq 0 ] && order=$reversed
  for h in $order; do
    "$apps/${APP:-pathfinder}" --size "$size" --steps "$steps" --warmup-steps "$warm" --height "$h" --json \
      | python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); print(json.dumps({"round": int(sys.argv[1]), "asked": sys.argv[2], "height": d["height"], "stepping_seconds": d["stepping_seconds"], "seconds": d["seconds"]}))' "$r" "$h" >> "$out"
  done
done
python3 - "$out" <<'PY'
import json, sys, statistics as st
rows = [json.loads(l) for l in open(sys.argv[1])]
by = {}
for r in rows: by.setdefault(r["asked"], []).append(r)
best = min(st.median(x["stepping_seconds"] for x in v) for v in by.values())
for k, v in by.items():
    s = [x["stepping_seconds"] for x in v]
    print(f"{k:>5} (h={v[0]['height']:>3}) stepping median {st.median(s)*1e3:8.2f} ms  min {min(s)*1e3:8.2f}  max {max(s)*1e3:8.2f}  best/this {best/st.median(s):.3f}")
PY
