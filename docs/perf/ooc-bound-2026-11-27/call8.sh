#!/usr/bin/env bash
# Session 30, call 8 (jacobi3d and hotspot of 526dd01 against 7c6d9a7's):
# the two apps call 5 did not measure. One GPU in core, bands of tiles where host copies
# weigh on the run (this tree, trapeze::one_gpu_bands) against one tile
# (bin/*-prev: 7c6d9a7), automatic plans, each build with its own GPU
# profile, interleaved rounds; then --verify runs of the new plans.
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
rows=$OUT/bands.jsonl; : > "$rows"
run() {  # build label args...
  local build=$1 label=$2; shift 2
  local line
  line=$(TRAPEZE_HOME=$PWD/home-$build timeout 90 ./run.sh "$@" --devices gpu --json 2>"$OUT/last-err.txt" | grep '^{' | tail -1)
  echo "{\"build\": \"$build\", \"case\": \"$label\", \"report\": ${line:-null}}" >> "$rows"
}
cases=("jacobi3d 64|jacobi3d --size 640 --steps 64"
       "jacobi3d 512|jacobi3d --size 640 --steps 512"
       "hotspot 256|hotspot --size 16384 --steps 256")
for build in new prev; do   # profiles (untimed)
  for app in jacobi3d hotspot; do
    bin=$app; [ $build = prev ] && bin=$app-prev
    size=1024; [ $app = jacobi3d ] && size=128
    TRAPEZE_HOME=$PWD/home-$build timeout 240 ./run.sh $bin --devices gpu --size $size --steps 16 > /dev/null 2>&1
  done
done
for round in 1 2; do
  for c in "${cases[@]}"; do
    read -r -a args <<< "${c#*|}"
    run new "${c%%|*}" "${args[@]}"
    run prev "${c%%|*}" "${args[0]}-prev" "${args[@]:1}"
  done
done
{
  TRAPEZE_HOME=$PWD/home-new ./run.sh jacobi3d --devices gpu --size 400 --steps 9 --verify --json | tail -1
  TRAPEZE_HOME=$PWD/home-new ./run.sh hotspot --devices gpu --size 6000x5000 --steps 20 --verify --json | tail -1
} > "$OUT/verify.jsonl" 2> "$OUT/verify-err.txt"
python3 - "$rows" "$OUT/verify.jsonl" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:
    by.setdefault((r["case"], r["build"]), []).append(r["report"])
print(f"{'case':15} {'build':5} {'tiles':>5} {'H':>4} {'k':>3} {'n':>2} {'median s':>9} {'spread':>13} {'new/prev speed':>14}")
for case in dict.fromkeys(r["case"] for r in rows):
    med = {}
    for build in ("new", "prev"):
        rep = [x for x in by.get((case, build), []) if x]
        if not rep: print(f"{case:15} {build:5} no report"); continue
        s = sorted(x["seconds"] for x in rep); med[build] = statistics.median(s); r = rep[0]
        speed = f"{med['prev'] / med['new']:14.3f}" if build == "prev" and "new" in med else ""
        print(f"{case:15} {build:5} {r['tiles']:5} {r['height']:4} {r['kernel_height']:3} {len(s):2} {med[build]:9.4f} {s[0]:6.3f}-{s[-1]:6.3f} {speed}")
for l in open(sys.argv[2]):
    if l.startswith("{"):
        r = json.loads(l); print("verify:", r["app"], r["size"], "steps", r["steps"], "tiles", r["tiles"], "H", r["height"], "verified", r["verified"])
PY
tail -3 "$OUT/verify-err.txt"
