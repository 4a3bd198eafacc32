#!/usr/bin/env bash
# Session 31, call 6: out of core, the largest tile predicted within 2% of
# the fastest (this tree) against a larger tile only where predicted 2%
# faster (bin/*-prev, 8af685e), CIP and Himeno under issue 11's caps,
# automatic plans, each build with its own GPU profile; in core (this tree)
# as the reference. Interleaved rounds, medians; rows written as they come.
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
rows=$OUT/runs.jsonl; : > "$rows"
run() {  # case build cap args...
  local label=$1 build=$2 cap=$3; shift 3
  local line env_args=()
  [ "$cap" -gt 0 ] && env_args=(STARPU_LIMIT_CUDA_MEM="$cap")
  line=$(env "${env_args[@]}" TRAPEZE_HOME=$PWD/home-$build timeout 60 ./run.sh "$@" --devices gpu --json 2>"$OUT/last-err.txt" | grep '^{' | tail -1)
  echo "{\"build\": \"$build\", \"case\": \"$label\", \"report\": ${line:-null}}" >> "$rows"
}
for build in new prev; do
  bin=cip; [ $build = prev ] && bin=cip-prev
  TRAPEZE_HOME=$PWD/home-$build timeout 60 ./run.sh $bin --devices gpu --size 1024 --steps 16 > /dev/null 2>&1
done
C="--size 16384 --steps 256"
for round in 1 2; do
  run "c in core" new 0 cip $C; run "c cap" new 1280 cip $C; run "c cap" prev 1280 cip-prev $C
done
for build in new prev; do
  bin=himeno; [ $build = prev ] && bin=himeno-prev
  TRAPEZE_HOME=$PWD/home-$build timeout 60 ./run.sh $bin --devices gpu --size S --steps 16 > /dev/null 2>&1
done
H="--size L --steps 128"
run "h cap" new 448 himeno $H; run "h cap" prev 448 himeno-prev $H
python3 - "$rows" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:
    by.setdefault((r["case"], r["build"]), []).append(r["report"])
core = {c[0]: statistics.median(x["seconds"] for x in rep if x) for c, rep in by.items() if c[0].endswith("in core") and any(rep)}
print(f"{'case':10} {'build':5} {'tile':>11} {'H':>4} {'k':>3} {'n':>2} {'median s':>9} {'spread':>13} {'PCIe GB':>8} {'vs core':>8}")
for (case, build), rep in by.items():
    rep = [x for x in rep if x]
    if not rep: print(f"{case:10} {build:5} no report"); continue
    s = sorted(x["seconds"] for x in rep); m = statistics.median(s); r = rep[0]
    ref = core.get(case.split()[0] + " in core", float("nan"))
    print(f"{case:10} {build:5} {r['tile']:>11} {r['height']:4} {r['kernel_height']:3} {len(s):2} {m:9.4f} {s[0]:6.3f}-{s[-1]:6.3f} "
          f"{statistics.median(x.get('pcie_bytes', 0) for x in rep) / 1e9:8.2f} {ref / m:8.3f}")
PY
