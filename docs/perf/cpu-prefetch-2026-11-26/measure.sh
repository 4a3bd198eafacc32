#!/usr/bin/env bash
# CPU sweeps with software prefetch against the same code without it
# (OLD: a build of the commit before, NEW: this build), whole app runs,
# interleaved rounds; rows to $OUT/apps.jsonl, a table last.
#   OLD=/tmp/build-nocuda NEW=build ROUNDS=3 OUT=/tmp/pf docs/perf/cpu-prefetch-2026-11-26/measure.sh
set -uo pipefail
old=${OLD:?build directory without the change} new=${NEW:-build} out=${OUT:-/tmp/prefetch}
mkdir -p "$out"; : > "$out/apps.jsonl"
cases=("jacobi2d --size 8192 --steps 64 --height 1" "jacobi2d --size 8192 --steps 64 --height 8"
       "jacobi2d --size 8192 --steps 64 --height auto" "jacobi3d --size 256 --steps 32 --height 1"
       "jacobi3d --size 256 --steps 32 --height auto" "hotspot --size 4096 --steps 256 --height auto"
       "life --size 8192 --steps 64 --height 1" "life --size 8192 --steps 64 --height auto")
# Each build its own height-model cache (the cache keeps one profile per
# stencil: builds taking turns would re-profile at every run), profiled once
# before the timed rounds.
for v in old new; do
  dir=$old; [ $v = new ] && dir=$new
  mkdir -p "$out/home-$v"
  for app in jacobi2d jacobi3d hotspot life; do
    TRAPEZE_HOME="$out/home-$v" "$dir/apps/$app" --size 64 --steps 8 --height auto --json >/dev/null 2>&1
  done
done
for ((r = 0; r < ${ROUNDS:-3}; ++r)); do
  for c in "${cases[@]}"; do
    for v in old new; do
      dir=$old; [ $v = new ] && dir=$new
      set -- $c
      line=$(TRAPEZE_HOME="$out/home-$v" "$dir/apps/$1" "${@:2}" --json 2>/dev/null | grep '^{' | tail -1)
      echo "{\"variant\": \"$v\", \"case\": \"$c\", \"report\": ${line:-null}}" >> "$out/apps.jsonl"
    done
  done
done
python3 - "$out/apps.jsonl" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print(f"{'case':48} {'old s':>8} {'new s':>8} {'old/new':>8}  heights old/new  checksums")
for case in dict.fromkeys(r["case"] for r in rows):
    med, h, sums = {}, {}, {}
    for v in ("old", "new"):
        rs = [r["report"] for r in rows if r["case"] == case and r["variant"] == v and r["report"]]
        med[v] = statistics.median(x["seconds"] for x in rs)
        h[v] = sorted({x["height"] for x in rs})
        sums[v] = {x.get("checksum") for x in rs}
    print(f"{case:48} {med['old']:8.3f} {med['new']:8.3f} {med['old'] / med['new']:8.3f}  {h['old']}/{h['new']}  {'equal' if sums['old'] == sums['new'] else 'DIFFER'}")
PY
