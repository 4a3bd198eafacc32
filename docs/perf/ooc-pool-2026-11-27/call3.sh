#!/usr/bin/env bash
# Session 28, call 3 (the H100 of call 2, warm): pool on against off with
# every CPU core a worker (calls 1-2 exported STARPU_NCPU=2, which slowed the
# in-core runs' host copies and so flattered the capped ratios), then the
# domain of 1.2x the H100's memory with the pool (checksum as verified on
# 2026-11-25: 5f696dfc2a13cf47).
here=$(cd "$(dirname "$0")" && pwd); cd "$here"
out=${OUT:-/tmp/out}; mkdir -p "$out"
unset STARPU_NCPU
clocks() { nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv,noheader; }
clocks
last_json() { grep '^{' | tail -1; }
j=(jacobi2d --devices gpu --size 16384 --steps 512 --json)
c=(cip --devices gpu --size 16384 --steps 256 --json)
h=(himeno --devices gpu --size L --steps 128 --json)
rows=$out/pool3.jsonl; : > "$rows"
for round in 1 2 3; do
  for v in core core-off cap cap-off cip-core cip-core-off cip-cap cip-cap-off him-core him-core-off him-cap him-cap-off; do
    lim=(); cmd=("${j[@]}"); pool=1
    case $v in cip-*) cmd=("${c[@]}") ;; him-*) cmd=("${h[@]}") ;; esac
    case $v in cap*) lim=(STARPU_LIMIT_CUDA_MEM=256) ;; cip-cap*) lim=(STARPU_LIMIT_CUDA_MEM=1280) ;; him-cap*) lim=(STARPU_LIMIT_CUDA_MEM=448) ;; esac
    case $v in *-off) pool=0 ;; esac
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
SMALL=0 STEPS=32 VERIFY=0 BIG_TIMEOUT=200 ./device_beyond_gpu_memory.sh 2>&1 | tail -4
