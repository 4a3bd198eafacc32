#!/usr/bin/env bash
# Session 31, call 5: out of core, a stage predicted to cost the larger of
# its compute and transfers plus half the smaller (this tree) against
# compute plus transfers (bin/*-prev, 6c60a28), issue 11's three capped
# runs, automatic plans, each build with its own GPU profile; in core
# (this tree) as the reference. Interleaved rounds, medians.
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
rows=$OUT/runs.jsonl; : > "$rows"
run() {  # case build cap args...
  local label=$1 build=$2 cap=$3; shift 3
  local line env_args=()
  [ "$cap" -gt 0 ] && env_args=(STARPU_LIMIT_CUDA_MEM="$cap")
  line=$(env "${env_args[@]}" TRAPEZE_HOME=$PWD/home-$build timeout 90 ./run.sh "$@" --devices gpu --json 2>"$OUT/last-err.txt" | grep '^{' | tail -1)
  [ -z "$line" ] && { echo "== $label $build"; tail -3 "$OUT/last-err.txt"; } >> "$OUT/no-report.txt"
  echo "{\"build\": \"$build\", \"case\": \"$label\", \"report\": ${line:-null}}" >> "$rows"
}
for build in new prev; do
  for app in jacobi2d cip himeno; do
    bin=$app; [ $build = prev ] && bin=$app-prev
    size=1024; [ $app = himeno ] && size=S
    TRAPEZE_HOME=$PWD/home-$build timeout 240 ./run.sh $bin --devices gpu --size $size --steps 16 > /dev/null 2>&1
  done
done
J="--size 16384 --steps 512"; C="--size 16384 --steps 256"; H="--size L --steps 128"
cases=("j in core|new|0|jacobi2d $J" "j cap|new|256|jacobi2d $J" "j cap|prev|256|jacobi2d-prev $J"
       "c in core|new|0|cip $C" "c cap|new|1280|cip $C" "c cap|prev|1280|cip-prev $C"
       "h in core|new|0|himeno $H" "h cap|new|448|himeno $H" "h cap|prev|448|himeno-prev $H")
for round in 1 2 3; do
  for c in "${cases[@]}"; do
    IFS='|' read -r label build cap argline <<< "$c"; read -r -a args <<< "$argline"
    run "$label" "$build" "$cap" "${args[@]}"
  done
done
STARPU_LIMIT_CUDA_MEM=80 TRAPEZE_HOME=$PWD/home-new ./run.sh cip --devices gpu --size 4096 --steps 60 --verify --json 2>/dev/null | grep '^{' | tail -1 > "$OUT/verify.jsonl"
STARPU_LIMIT_CUDA_MEM=64 TRAPEZE_HOME=$PWD/home-new ./run.sh jacobi2d --devices gpu --size 8192 --steps 100 --verify --json 2>/dev/null | grep '^{' | tail -1 >> "$OUT/verify.jsonl"
python3 - "$rows" "$OUT/verify.jsonl" <<'PY'
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
for l in open(sys.argv[2]):
    if l.startswith("{"):
        r = json.loads(l); print("verify:", r["app"], r["size"], "steps", r["steps"], "tile", r["tile"], "H", r["height"], "verified", r["verified"])
PY
cat "$OUT/no-report.txt" 2>/dev/null | head; true
