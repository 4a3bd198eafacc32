#!/usr/bin/env bash
# Session 31, call 1: out of core, a tile's second device buffer as the
# stage task's scratch buffer, and a stage task allowed 3/8 of the GPU
# where waiting tiles keep one buffer (this tree), against the tree before
# (bin/*-prev: two buffers a tile, a quarter), jacobi2d and CIP under
# issue 11's quarter caps; in core as the reference. Each build keeps its
# own GPU profile; interleaved rounds, medians; --verify runs and the GPU
# tests of streamed tiles last.
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
for build in new prev; do   # profiles (untimed)
  for app in jacobi2d cip; do
    bin=$app; [ $build = prev ] && bin=$app-prev
    TRAPEZE_HOME=$PWD/home-$build timeout 240 ./run.sh $bin --devices gpu --size 1024 --steps 16 > /dev/null 2>&1
  done
done
J="--size 16384 --steps 512"; C="--size 16384 --steps 256"
cases=("j in core|new|0|jacobi2d $J"
       "j cap auto|new|256|jacobi2d $J"
       "j cap auto|prev|256|jacobi2d-prev $J"
       "j cap 8192x1024 H96|new|256|jacobi2d $J --tile 8192x1024 --height 96"
       "j cap 4096x2048 H96|new|256|jacobi2d $J --tile 4096x2048 --height 96"
       "c in core|new|0|cip $C"
       "c cap auto|new|1280|cip $C"
       "c cap auto|prev|1280|cip-prev $C")
for round in 1 2 3; do
  for c in "${cases[@]}"; do
    IFS='|' read -r label build cap argline <<< "$c"
    read -r -a args <<< "$argline"
    run "$label" "$build" "$cap" "${args[@]}"
  done
done
{
  STARPU_LIMIT_CUDA_MEM=64 TRAPEZE_HOME=$PWD/home-new ./run.sh jacobi2d --devices gpu --size 8192 --steps 100 --verify --json | tail -1
  STARPU_LIMIT_CUDA_MEM=64 TRAPEZE_HOME=$PWD/home-new ./run.sh jacobi2d --devices gpu --size 8192 --steps 100 --tile 4096x1024 --height 40 --verify --json | tail -1
  STARPU_LIMIT_CUDA_MEM=80 TRAPEZE_HOME=$PWD/home-new ./run.sh cip --devices gpu --size 4096 --steps 30 --verify --json | tail -1
} > "$OUT/verify.jsonl" 2> "$OUT/verify-err.txt"
timeout 200 ./run.sh gpu_equality_test --gtest_filter='GpuEquality.StreamedTiles:GpuEquality.CipFloat:GpuEquality.Jacobi2DFloat' > "$OUT/equality.txt" 2>&1
echo "equality exit $?" >> "$OUT/equality.txt"
python3 - "$rows" "$OUT/verify.jsonl" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:
    by.setdefault((r["case"], r["build"]), []).append(r["report"])
core = {}
for (case, build), rep in by.items():
    if case.endswith("in core"):
        s = [x["seconds"] for x in rep if x]
        if s: core[case[0]] = statistics.median(s)
print(f"{'case':22} {'build':5} {'tile':>11} {'H':>4} {'k':>3} {'n':>2} {'median s':>9} {'spread':>13} {'PCIe GB':>8} {'vs core':>8}")
for (case, build), rep in by.items():
    rep = [x for x in rep if x]
    if not rep: print(f"{case:22} {build:5} no report"); continue
    s = sorted(x["seconds"] for x in rep); m = statistics.median(s); r = rep[0]
    ratio = core.get(case[0], float("nan")) / m
    print(f"{case:22} {build:5} {r['tile']:>11} {r['height']:4} {r['kernel_height']:3} {len(s):2} {m:9.4f} {s[0]:6.3f}-{s[-1]:6.3f} "
          f"{statistics.median(x.get('pcie_bytes', 0) for x in rep) / 1e9:8.2f} {ratio:8.3f}")
for l in open(sys.argv[2]):
    if l.startswith("{"):
        r = json.loads(l); print("verify:", r["app"], r["size"], "steps", r["steps"], "tile", r["tile"], "H", r["height"], "verified", r["verified"])
PY
tail -2 "$OUT/equality.txt"; tail -3 "$OUT/verify-err.txt"; cat "$OUT/no-report.txt" 2>/dev/null | head
