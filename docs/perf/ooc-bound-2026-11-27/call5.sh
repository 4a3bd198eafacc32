#!/usr/bin/env bash
# Session 30, call 5: one GPU in core, bands of tiles where host copies
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
cases=("jacobi2d 512|jacobi2d --size 16384 --steps 512"
       "jacobi2d 2048|jacobi2d --size 16384 --steps 2048"
       "jacobi2d 8192|jacobi2d --size 16384 --steps 8192"
       "himeno 128|himeno --size L --steps 128"
       "himeno 512|himeno --size L --steps 512"
       "cip 256|cip --size 16384 --steps 256")
for build in new prev; do   # profiles (untimed)
  for app in jacobi2d himeno cip; do
    bin=$app; [ $build = prev ] && bin=$app-prev
    size=1024; [ $app = himeno ] && size=S
    TRAPEZE_HOME=$PWD/home-$build timeout 240 ./run.sh $bin --devices gpu --size $size --steps 16 > /dev/null 2>&1
  done
done
for round in 1 2 3; do
  for c in "${cases[@]}"; do
    read -r -a args <<< "${c#*|}"
    run new "${c%%|*}" "${args[@]}"
    run prev "${c%%|*}" "${args[0]}-prev" "${args[@]:1}"
  done
done
{
  TRAPEZE_HOME=$PWD/home-new ./run.sh jacobi2d --devices gpu --size 4096 --steps 64 --verify --json | tail -1
  TRAPEZE_HOME=$PWD/home-new ./run.sh jacobi2d --devices gpu --size 8000x6000 --steps 37 --verify --json | tail -1
  TRAPEZE_HOME=$PWD/home-new ./run.sh himeno --devices gpu --size L --steps 12 --verify --json | tail -1
  TRAPEZE_HOME=$PWD/home-new ./run.sh cip --devices gpu --size 4096 --steps 40 --verify --json | tail -1
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
