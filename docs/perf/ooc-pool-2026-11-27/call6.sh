#!/usr/bin/env bash
# Session 28, call 6: the streamed tile's second buffer as the stage task's
# STARPU_SCRATCH buffer (docs/perf/ooc-scratch-2026-11-27/scratch-second-buffer.patch,
# 1.2x slower on 2026-11-27, when every reallocation of the scratch buffer
# was a cudaFree that drained the GPU) again, now that StarPU's buffers come
# from the stream-ordered pool: bin/jacobi2d-scratch against bin/jacobi2d
# (two device buffers a tile), interleaved; traces of one capped run each.
here=$(cd "$(dirname "$0")" && pwd); cd "$here"
out=${OUT:-/tmp/out}; mkdir -p "$out"
nvidia-smi -L
last_json() { grep '^{' | tail -1; }
brief() { python3 -c "import json,sys; r=json.loads(sys.argv[1]); print('verified', r.get('verified'), r['tile'], 'H', r['height'], 'k', r['kernel_height'], 's', round(r['seconds'],3))" "$1" 2>&1 | tail -1; }
mkdir -p "$here/trapeze-home-scratch"
echo "verify jacobi2d-scratch 8192^2 under 64 MiB: $(brief "$(TRAPEZE_HOME="$here/trapeze-home-scratch" STARPU_LIMIT_CUDA_MEM=64 timeout 100 ./run.sh jacobi2d-scratch --devices gpu --size 8192 --steps 300 --verify --json 2>/dev/null | last_json)")"
j=(--devices gpu --size 16384 --steps 512 --json)
# Each build keeps its own GPU profile (one cache file shared by two builds is
# profiled again at every run).
mkdir -p "$here/trapeze-home-scratch"
./run.sh jacobi2d "${j[@]}" > /dev/null 2>&1
TRAPEZE_HOME="$here/trapeze-home-scratch" ./run.sh jacobi2d-scratch "${j[@]}" > /dev/null 2>&1
rows=$out/scratch.jsonl; : > "$rows"
for round in 1 2 3 4 5; do
  for v in core cap cap-scratch; do
    b=jacobi2d; lim=(STARPU_LIMIT_CUDA_MEM=256)
    case $v in core) lim=() ;; cap-scratch) b=jacobi2d-scratch; lim+=(TRAPEZE_HOME="$here/trapeze-home-scratch") ;; esac
    line=$(env "${lim[@]}" timeout 90 ./run.sh $b "${j[@]}" 2>/dev/null | last_json)
    echo "{\"variant\": \"$v\", \"round\": $round, \"report\": ${line:-null}}" >> "$rows"
  done
done
for v in cap cap-scratch; do
  b=jacobi2d; home=$here/trapeze-home; [ $v = cap-scratch ] && b=jacobi2d-scratch home=$here/trapeze-home-scratch
  TRAPEZE_HOME=$home STARPU_LIMIT_CUDA_MEM=256 timeout 90 ./run.sh $b "${j[@]}" --trace "$out/trace-$v" 2>/dev/null | last_json | python3 -c "import json,sys; r=json.loads(sys.stdin.read()); print('traced $v', round(r['seconds'],4), round(r['pcie_bytes']/1e9,2))"
done
du -sh "$out"/trace-* 2>/dev/null; ls "$out"/trace-cap
python3 - "$rows" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:
    by.setdefault(r["variant"], [])
    if r["report"]: by[r["variant"]].append(r["report"])
core = statistics.median(x["seconds"] for x in by["core"])
print(f"{'variant':12} {'tile':>12} {'H':>4} {'k':>3} {'n':>2} {'median s':>9} {'rounds (s)':>36} {'PCIe GB':>8} {'vs core':>7}")
for v, rep in by.items():
    s = [x["seconds"] for x in rep]; m = statistics.median(s); r = rep[0]
    print(f"{v:12} {r['tile']:>12} {r['height']:>4} {r['kernel_height']:>3} {len(s):2} {m:9.4f} {' '.join('%.3f' % x for x in s):>36} "
          f"{statistics.median(x['pcie_bytes'] for x in rep)/1e9:8.2f} {core / m:7.3f}")
PY
