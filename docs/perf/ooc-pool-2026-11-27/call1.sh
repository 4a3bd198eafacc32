#!/usr/bin/env bash
# Session 28, call 1: the GPU equality suite and memcheck on the committed
# tree (baea485: streamed tiles through two device buffers), then where a
# capped run's idle time goes: cudaFree/cudaMalloc counted (shim), and served
# from the stream-ordered pool (shim, CUDA_SHIM_POOL=1). Interleaved rounds.
here=$(cd "$(dirname "$0")" && pwd); cd "$here"
out=${OUT:-/tmp/out}; mkdir -p "$out"
nvidia-smi -L
export STARPU_NCPU=2
timeout 260 ./run.sh gpu_equality_test --gtest_filter=-GpuSanitizer.* > "$out/equality.txt" 2>&1; echo "equality rc=$?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests from .* ran" "$out/equality.txt" | head -8
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
STARPU_NCUDA=1 timeout 100 ./run.sh "$sanitizer" --tool memcheck --error-exitcode 9 --print-limit 20 \
  "$here/bin/gpu_equality_test" --gtest_filter='GpuSanitizer.*' > "$out/memcheck.txt" 2>&1; echo "memcheck rc=$?"
grep -E "ERROR SUMMARY|PASSED|FAILED" "$out/memcheck.txt" | head -4
shim=$here/lib/libcudashim.so
run() { timeout "${RUN_TIMEOUT:-60}" ./run.sh "$@"; }
last_json() { grep '^{' | tail -1; }
j=(jacobi2d --devices gpu --size 16384 --steps 512 --json)
c=(cip --devices gpu --size 16384 --steps 256 --json)
h=(himeno --devices gpu --size L --steps 128 --json)
run jacobi2d --devices gpu --size 4096 --steps 64 --json > /dev/null 2>&1
run cip --devices gpu --size 4096 --steps 64 --json > /dev/null 2>&1
run himeno --devices gpu --size S --steps 16 --json > /dev/null 2>&1
rows=$out/alloc.jsonl; : > "$rows"
for round in 1 2 3; do
  for v in core cap cap-count cap-pool core-pool cip-core cip-cap cip-pool him-core him-cap him-pool; do
    pre=(); lim=(); cmd=("${j[@]}")
    case $v in
      cip-*) cmd=("${c[@]}") ;;
      him-*) cmd=("${h[@]}") ;;
    esac
    case $v in
      cap|cap-*) lim=(STARPU_LIMIT_CUDA_MEM=256) ;;
      cip-cap|cip-pool) lim=(STARPU_LIMIT_CUDA_MEM=1280) ;;
      him-cap|him-pool) lim=(STARPU_LIMIT_CUDA_MEM=448) ;;
    esac
    case $v in
      *-count) pre=(LD_PRELOAD=$shim) ;;
      *-pool) pre=(LD_PRELOAD=$shim CUDA_SHIM_POOL=1) ;;
    esac
    [ $round = 3 ] && case $v in cip-*|him-*) continue ;; esac
    env "${pre[@]}" "${lim[@]}" timeout 60 ./run.sh "${cmd[@]}" > "$out/o.txt" 2> "$out/e.txt"
    line=$(last_json < "$out/o.txt"); shimline=$(grep '^SHIM' "$out/e.txt" | tail -1)
    echo "{\"variant\": \"$v\", \"round\": $round, \"shim\": \"$shimline\", \"report\": ${line:-null}}" >> "$rows"
    [ -n "$shimline" ] && echo "$v r$round: $shimline"
  done
done
python3 - "$rows" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:
    if r["report"]: by.setdefault(r["variant"], []).append(r["report"])
def med(v): return statistics.median(x["seconds"] for x in by[v]) if v in by else None
print(f"{'variant':10} {'tile':>14} {'H':>4} {'k':>3} {'n':>2} {'median s':>9} {'spread':>13} {'PCIe GB':>8} {'vs core':>7}")
for v, rep in by.items():
    base = med("cip-core") if v.startswith("cip") else med("him-core") if v.startswith("him") else med("core")
    s = sorted(x["seconds"] for x in rep); m = statistics.median(s); r = rep[0]
    print(f"{v:10} {r['tile']:>14} {r['height']:>4} {r['kernel_height']:>3} {len(s):2} {m:9.4f} {s[0]:6.3f}-{s[-1]:6.3f} "
          f"{statistics.median(x.get('pcie_bytes',0) for x in rep)/1e9:8.2f} {base / m if base else 0:7.3f}")
PY
