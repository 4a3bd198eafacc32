#!/usr/bin/env bash
# Session 28, call 7: out-of-core bands scattered one after another and each
# band's copies on every copy core (StencilRun::streams_bands), against the
# tree before (bin/*-prev, same StarPU with the pool), interleaved; the GPU's
# streamed-tile tests and capped --verify runs (grid and --no-grid) with it;
# a trace of one capped run.
here=$(cd "$(dirname "$0")" && pwd); cd "$here"
out=${OUT:-/tmp/out}; mkdir -p "$out"
nvidia-smi -L
last_json() { grep '^{' | tail -1; }
brief() { python3 -c "import json,sys; r=json.loads(sys.argv[1]); print('verified', r.get('verified'), r['tile'], 'H', r['height'], 'k', r['kernel_height'], 's', round(r['seconds'],3))" "$1" 2>&1 | tail -1; }
prev=$here/trapeze-home-prev; mkdir -p "$prev"
STARPU_NCPU=2 timeout 150 ./run.sh gpu_equality_test --gtest_filter='GpuEquality.StreamedTiles:GpuSanitizer.*' > "$out/equality.txt" 2>&1; echo "streamed tiles rc=$?"
grep -E "^\[  (PASSED|FAILED) |^\[       OK" "$out/equality.txt" | head -5
echo "verify jacobi2d 8192^2 under 64 MiB: $(brief "$(STARPU_LIMIT_CUDA_MEM=64 timeout 100 ./run.sh jacobi2d --devices gpu --size 8192 --steps 300 --verify --json 2>/dev/null | last_json)")"
echo "verify jacobi2d --no-grid 4099x4093 under 48 MiB: $(brief "$(STARPU_LIMIT_CUDA_MEM=48 timeout 100 ./run.sh jacobi2d --devices gpu --no-grid --size 4099x4093 --steps 40 --verify --json 2>/dev/null | last_json)")"
echo "verify cip 4096^2 under 80 MiB: $(brief "$(STARPU_LIMIT_CUDA_MEM=80 timeout 100 ./run.sh cip --devices gpu --size 4096 --steps 100 --verify --json 2>/dev/null | last_json)")"
j=(jacobi2d --devices gpu --size 16384 --steps 512 --json)
c=(cip --devices gpu --size 16384 --steps 256 --json)
h=(himeno --devices gpu --size L --steps 128 --json)
for a in jacobi2d cip himeno; do
  ./run.sh $a --devices gpu --size $([ $a = himeno ] && echo S || echo 4096) --steps 16 --json > /dev/null 2>&1
  TRAPEZE_HOME=$prev ./run.sh $a-prev --devices gpu --size $([ $a = himeno ] && echo S || echo 4096) --steps 16 --json > /dev/null 2>&1
done
rows=$out/bands.jsonl; : > "$rows"
for round in 1 2 3 4 5; do
  for v in core cap cap-prev cip-core cip-cap cip-cap-prev him-core him-cap him-cap-prev; do
    cmd=("${j[@]}"); lim=()
    case $v in cip-*) cmd=("${c[@]}") ;; him-*) cmd=("${h[@]}") ;; esac
    case $v in cap*) lim=(STARPU_LIMIT_CUDA_MEM=256) ;; cip-cap*) lim=(STARPU_LIMIT_CUDA_MEM=1280) ;; him-cap*) lim=(STARPU_LIMIT_CUDA_MEM=448) ;; esac
    case $v in *-prev) cmd[0]=${cmd[0]}-prev; lim+=(TRAPEZE_HOME=$prev) ;; esac
    [ $round -gt 3 ] && case $v in cip-*|him-*) continue ;; esac
    line=$(env "${lim[@]}" timeout 90 ./run.sh "${cmd[@]}" 2>/dev/null | last_json)
    echo "{\"variant\": \"$v\", \"round\": $round, \"report\": ${line:-null}}" >> "$rows"
  done
done
STARPU_LIMIT_CUDA_MEM=256 timeout 90 ./run.sh "${j[@]}" --trace "$out/trace-cap" 2>/dev/null | last_json | python3 -c "import json,sys; r=json.loads(sys.stdin.read()); print('traced cap', round(r['seconds'],4))"
timeout 90 ./run.sh "${j[@]}" --trace "$out/trace-core" 2>/dev/null | last_json | python3 -c "import json,sys; r=json.loads(sys.stdin.read()); print('traced core', round(r['seconds'],4))"
python3 - "$rows" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:
    by.setdefault(r["variant"], [])
    if r["report"]: by[r["variant"]].append(r["report"])
def med(v): return statistics.median(x["seconds"] for x in by[v]) if by.get(v) else None
print(f"{'variant':13} {'tile':>12} {'H':>4} {'k':>3} {'n':>2} {'median s':>9} {'rounds (s)':>36} {'vs core':>7}")
for v, rep in by.items():
    if not rep: print(f"{v:13} no report"); continue
    base = med(v.split('-')[0] + '-core') if v.startswith(('cip', 'him')) else med('core')
    s = [x["seconds"] for x in rep]; m = statistics.median(s); r = rep[0]
    print(f"{v:13} {r['tile']:>12} {r['height']:>4} {r['kernel_height']:>3} {len(s):2} {m:9.4f} {' '.join('%.3f' % x for x in s):>36} {base / m:7.3f}")
PY
