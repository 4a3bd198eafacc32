#!/usr/bin/env bash
# The out-of-core height model: a stage's compute plus its transfers, and a
# stage task (tile, ghost zone, strips) bound to a quarter of the GPU
# (bin/*-sum), against the larger of compute and transfers with the tile alone
# bound (bin/*-max, the tree before). jacobi2d 16384^2 under 256 MiB, CIP
# 16384^2 under 1280 MiB (a quarter each), interleaved rounds, medians.
here=$(cd "$(dirname "$0")" && pwd); cd "$here"
out=${OUT:-/tmp/out}; mkdir -p "$out"
nvidia-smi -L
run() { timeout "${RUN_TIMEOUT:-120}" ./run.sh "$@"; }
last_json() { grep '^{' | tail -1; }
brief() { python3 -c "import json,sys; r=json.loads(sys.argv[1]); print('verified', r['verified'], r['tile'], 'H', r['height'], 'k', r['kernel_height'], 's', round(r['seconds'],3))" "$1" 2>&1; }
for b in jacobi2d-sum jacobi2d-max cip-sum cip-max; do run $b --devices gpu --size 4096 --steps 64 --json >/dev/null 2>&1; done
echo "verify jacobi2d-sum 8192^2 under 64 MiB: $(brief "$(STARPU_LIMIT_CUDA_MEM=64 run jacobi2d-sum --devices gpu --size 8192 --steps 300 --verify --json 2>/dev/null | last_json)")"
echo "verify cip-sum 4096^2 under 80 MiB: $(brief "$(STARPU_LIMIT_CUDA_MEM=80 run cip-sum --devices gpu --size 4096 --steps 100 --verify --json 2>/dev/null | last_json)")"
for b in jacobi2d-sum jacobi2d-max; do
  echo "$b 4096^2 under 16 MiB: $(TRAPEZE_STALL_SECONDS=15 STARPU_LIMIT_CUDA_MEM=16 run $b --devices gpu --size 4096 --steps 96 --json 2>&1 | tail -1 | cut -c1-220) (exit ${PIPESTATUS[0]})"
done
j=(--devices gpu --size 16384 --steps 512 --json)
c=(--devices gpu --size 16384 --steps 256 --json)
rows=$out/sum_model.jsonl; : > "$rows"
for round in 1 2 3; do
  for v in core auto-sum auto-max H192 H216 H228 cip-core cip-sum cip-max; do
    case $v in
      core) line=$(run jacobi2d-sum "${j[@]}" 2>/dev/null | last_json) ;;
      auto-sum) line=$(STARPU_LIMIT_CUDA_MEM=256 run jacobi2d-sum "${j[@]}" 2>/dev/null | last_json) ;;
      auto-max) line=$(STARPU_LIMIT_CUDA_MEM=256 run jacobi2d-max "${j[@]}" 2>/dev/null | last_json) ;;
      H*) line=$(STARPU_LIMIT_CUDA_MEM=256 run jacobi2d-sum "${j[@]}" --height "${v#H}" 2>/dev/null | last_json) ;;
      cip-core) [ $round = 3 ] && continue; line=$(run cip-sum "${c[@]}" 2>/dev/null | last_json) ;;
      cip-sum) [ $round = 3 ] && continue; line=$(STARPU_LIMIT_CUDA_MEM=1280 run cip-sum "${c[@]}" 2>/dev/null | last_json) ;;
      cip-max) [ $round = 3 ] && continue; line=$(STARPU_LIMIT_CUDA_MEM=1280 run cip-max "${c[@]}" 2>/dev/null | last_json) ;;
    esac
    echo "{\"variant\": \"$v\", \"round\": $round, \"report\": ${line:-null}}" >> "$rows"
  done
done
python3 - "$rows" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:
    if r["report"]: by.setdefault(r["variant"], []).append(r["report"])
def med(v): return statistics.median(x["seconds"] for x in by[v]) if v in by else None
print(f"{'variant':10} {'tile':>11} {'H':>4} {'k':>3} {'median s':>9} {'spread':>13} {'PCIe GB':>8} {'pred ms':>8} {'vs core':>7}")
for v, rep in by.items():
    base = med("cip-core") if v.startswith("cip") else med("core")
    s = sorted(x["seconds"] for x in rep); m = statistics.median(s); r = rep[0]
    pred = r.get("predicted_seconds_per_step") or 0
    print(f"{v:10} {r['tile']:>11} {r['height']:>4} {r['kernel_height']:>3} {m:9.4f} {s[0]:6.3f}-{s[-1]:6.3f} "
          f"{statistics.median(x['pcie_bytes'] for x in rep)/1e9:8.2f} {pred*1e3:8.3f} {base / m if base else 0:7.3f}")
PY
