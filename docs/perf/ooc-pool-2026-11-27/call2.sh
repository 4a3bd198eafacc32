#!/usr/bin/env bash
# Session 28, call 2: StarPU's device buffers from the stream-ordered pool
# (scripts/setup.sh, patch_cuda_memory_pool). The GPU equality suite and
# memcheck with the pool on, then pool on against off (TRAPEZE_CUDA_POOL=0)
# in interleaved rounds: jacobi2d, CIP and Himeno in core and capped to a
# quarter of their domain; a tiny cap that stalled before.
here=$(cd "$(dirname "$0")" && pwd); cd "$here"
out=${OUT:-/tmp/out}; mkdir -p "$out"
clocks() { nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv,noheader; }
clocks
export STARPU_NCPU=2
timeout 260 ./run.sh gpu_equality_test --gtest_filter=-GpuSanitizer.* > "$out/equality.txt" 2>&1; echo "equality (pool) rc=$?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests from .* ran" "$out/equality.txt" | head -8
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
STARPU_NCUDA=1 timeout 100 ./run.sh "$sanitizer" --tool memcheck --error-exitcode 9 --print-limit 20 \
  "$here/bin/gpu_equality_test" --gtest_filter='GpuSanitizer.*' > "$out/memcheck.txt" 2>&1; echo "memcheck (pool) rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" "$out/memcheck.txt" | head -4
last_json() { grep '^{' | tail -1; }
brief() { python3 -c "import json,sys; r=json.loads(sys.argv[1]); print('verified', r.get('verified'), r['tile'], 'H', r['height'], 'k', r['kernel_height'], 's', round(r['seconds'],3))" "$1" 2>&1 | tail -1; }
echo "verify cip 4096^2 under 80 MiB (pool): $(brief "$(STARPU_LIMIT_CUDA_MEM=80 timeout 100 ./run.sh cip --devices gpu --size 4096 --steps 100 --verify --json 2>/dev/null | last_json)")"
echo "verify himeno M under 56 MiB (pool): $(brief "$(STARPU_LIMIT_CUDA_MEM=56 timeout 100 ./run.sh himeno --devices gpu --size M --steps 40 --verify --json 2>/dev/null | last_json)")"
echo "verify jacobi2d 8192^2 under 64 MiB (pool): $(brief "$(STARPU_LIMIT_CUDA_MEM=64 timeout 100 ./run.sh jacobi2d --devices gpu --size 8192 --steps 300 --verify --json 2>/dev/null | last_json)")"
echo "jacobi2d 4096^2 under 16 MiB (pool): $(TRAPEZE_STALL_SECONDS=15 STARPU_LIMIT_CUDA_MEM=16 timeout 40 ./run.sh jacobi2d --devices gpu --size 4096 --steps 96 --json 2>&1 | tail -1 | cut -c1-200) (exit ${PIPESTATUS[0]})"
j=(jacobi2d --devices gpu --size 16384 --steps 512 --json)
c=(cip --devices gpu --size 16384 --steps 256 --json)
h=(himeno --devices gpu --size L --steps 128 --json)
timeout 120 ./run.sh himeno --devices gpu --size L --steps 8 --json > /dev/null 2>&1
rows=$out/pool.jsonl; : > "$rows"
for round in 1 2 3; do
  for v in core core-off cap cap-off cip-core cip-core-off cip-cap cip-cap-off him-core him-core-off him-cap him-cap-off; do
    lim=(); cmd=("${j[@]}"); pool=1
    case $v in cip-*) cmd=("${c[@]}") ;; him-*) cmd=("${h[@]}") ;; esac
    case $v in cap*) lim=(STARPU_LIMIT_CUDA_MEM=256) ;; cip-cap*) lim=(STARPU_LIMIT_CUDA_MEM=1280) ;; him-cap*) lim=(STARPU_LIMIT_CUDA_MEM=448) ;; esac
    case $v in *-off) pool=0 ;; esac
    [ $round = 3 ] && case $v in cip-*|him-*) continue ;; esac
    line=$(env "${lim[@]}" TRAPEZE_CUDA_POOL=$pool timeout 90 ./run.sh "${cmd[@]}" 2>/dev/null | last_json)
    echo "{\"variant\": \"$v\", \"round\": $round, \"report\": ${line:-null}}" >> "$rows"
  done
done
clocks
python3 - "$rows" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:
    by.setdefault(r["variant"], [])
    if r["report"]: by[r["variant"]].append(r["report"])
def med(v): return statistics.median(x["seconds"] for x in by[v]) if by.get(v) else None
print(f"{'variant':13} {'tile':>14} {'H':>4} {'k':>3} {'n':>2} {'median s':>9} {'spread':>13} {'PCIe GB':>8} {'vs core':>7} {'off/on':>6}")
for v, rep in by.items():
    if not rep: print(f"{v:13} no report"); continue
    app = v.split('-')[0] if v.startswith(('cip', 'him')) else ''
    base = med((app + '-' if app else '') + 'core' + ('-off' if v.endswith('-off') else ''))
    s = sorted(x["seconds"] for x in rep); m = statistics.median(s); r = rep[0]
    other = med(v[:-4]) if v.endswith('-off') else None
    print(f"{v:13} {r['tile']:>14} {r['height']:>4} {r['kernel_height']:>3} {len(s):2} {m:9.4f} {s[0]:6.3f}-{s[-1]:6.3f} "
          f"{statistics.median(x.get('pcie_bytes',0) for x in rep)/1e9:8.2f} {base / m if base else 0:7.3f} {m / other if other else 0:6.3f}")
PY
