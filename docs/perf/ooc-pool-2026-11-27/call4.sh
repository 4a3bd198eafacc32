#!/usr/bin/env bash
# Session 28, call 4 (two GPUs): the stream-ordered pool where GPUs copy
# between each other (peer copies of pool memory, CUDA IPC mailboxes beside
# it): the multi-GPU equality tests and ranks on GPUs with the pool on; two
# GPUs in one process, pool on against off; then one GPU, jacobi2d capped to
# a quarter against in core, more rounds (calls 1-3 had 3, spread 0.40-0.61).
here=$(cd "$(dirname "$0")" && pwd); cd "$here"
out=${OUT:-/tmp/out}; mkdir -p "$out"
nvidia-smi -L
last_json() { grep '^{' | tail -1; }
STARPU_NCPU=2 timeout 240 ./run.sh gpu_equality_test \
  --gtest_filter='GpuEquality.EveryGpuUnderTheDefaultPolicy:GpuEquality.StreamedTiles:GpuEquality.Jacobi3D:GpuEquality.Cip*' \
  > "$out/equality.txt" 2>&1; echo "equality, 2 GPUs, pool rc=$?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[       OK|tests from .* ran" "$out/equality.txt" | head -10
. "$here/mpi_ranked.sh"
LD_LIBRARY_PATH="$mpilib:$here/lib:/usr/local/cuda/lib64" STARPU_HOME="$here/starpu-home" TRAPEZE_HOME="$here/trapeze-home" \
  timeout 200 python3 "$here/tests/mpi_gpu_test.py" "$here/bin" > "$out/mpi_gpu.txt" 2>&1; echo "mpi_gpu_test (pool) rc=$?"
tail -4 "$out/mpi_gpu.txt"
rows=$out/two.jsonl; : > "$rows"
d3=(jacobi3d --devices gpu --no-grid --size 1024x1024x1024 --steps 160 --warmup-steps 32 --json)
d2=(jacobi2d --devices gpu --no-grid --size 49152x49152 --steps 320 --warmup-steps 64 --json)
j=(jacobi2d --devices gpu --size 16384 --steps 512 --json)
for round in 1 2 3; do
  for v in 3d 3d-off 2d 2d-off; do
    pool=1; case $v in *-off) pool=0 ;; esac
    case $v in 3d*) cmd=("${d3[@]}") ;; *) cmd=("${d2[@]}") ;; esac
    line=$(STARPU_NCUDA=2 TRAPEZE_CUDA_POOL=$pool timeout 120 ./run.sh "${cmd[@]}" 2>/dev/null | last_json)
    echo "{\"variant\": \"$v\", \"round\": $round, \"report\": ${line:-null}}" >> "$rows"
  done
done
for round in 1 2 3 4 5 6; do
  for v in core cap; do
    lim=(); [ $v = cap ] && lim=(STARPU_LIMIT_CUDA_MEM=256)
    line=$(env "${lim[@]}" STARPU_NCUDA=1 timeout 90 ./run.sh "${j[@]}" 2>/dev/null | last_json)
    echo "{\"variant\": \"1gpu-$v\", \"round\": $round, \"report\": ${line:-null}}" >> "$rows"
  done
done
python3 - "$rows" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:
    by.setdefault(r["variant"], [])
    if r["report"]: by[r["variant"]].append(r["report"])
def key(x): return x.get("stepping_seconds") or x["seconds"]
def med(v): return statistics.median(key(x) for x in by[v]) if by.get(v) else None
print(f"{'variant':10} {'tile':>16} {'H':>4} {'k':>3} {'n':>2} {'median s':>9} {'spread':>13} {'checksum':>17} {'ratio':>6}")
for v, rep in by.items():
    if not rep: print(f"{v:10} no report"); continue
    s = sorted(key(x) for x in rep); m = statistics.median(s); r = rep[0]
    ratio = (med(v[:-4]) and m / med(v[:-4])) if v.endswith('-off') else (med('1gpu-core') / m if v == '1gpu-cap' else 0)
    print(f"{v:10} {r['tile']:>16} {r['height']:>4} {r['kernel_height']:>3} {len(s):2} {m:9.4f} {s[0]:6.3f}-{s[-1]:6.3f} {str(r.get('checksum')):>17} {ratio or 0:6.3f}")
c = [x["seconds"] for x in by.get("1gpu-core", [])]; p = [x["seconds"] for x in by.get("1gpu-cap", [])]
print("1 GPU per round, in core / capped:", [round(a / b, 3) for a, b in zip(c, p)])
PY
