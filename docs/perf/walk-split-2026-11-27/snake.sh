#!/usr/bin/env bash
# Out-of-core jacobi2d 16384^2 capped to a quarter: the committed tree against
# the snake order (bin/jacobi2d-snake), auto and H 192, interleaved rounds;
# capped verification at 8192^2; traces of two capped runs.
here=$(cd "$(dirname "$0")" && pwd); cd "$here"
out=${OUT:-/tmp/out}; mkdir -p "$out"
nvidia-smi -L
run() { timeout "${RUN_TIMEOUT:-120}" ./run.sh "$@"; }
last_json() { grep '^{' | tail -1; }
for b in jacobi2d jacobi2d-snake; do
  line=$(STARPU_LIMIT_CUDA_MEM=64 run $b --devices gpu --size 8192 --steps 200 --verify --json 2>/dev/null | last_json)
  echo "verify $b 8192^2 capped to 64 MiB: $(python3 -c "import json,sys; r=json.loads(sys.argv[1]); print('verified', r['verified'], 'out_of_core', r['out_of_core'], r['tile'], 'H', r['height'], 'k', r['kernel_height'], 'pcie GB', round(r['pcie_bytes']/1e9,2))" "$line")"
done
common=(--devices gpu --size 16384 --steps 512 --json)
rows=$out/snake.jsonl; : > "$rows"
for round in 1 2 3; do
  for v in core cap cap-snake capH192 capH192-snake; do
    b=jacobi2d; [[ $v == *-snake ]] && b=jacobi2d-snake
    extra=(); [[ $v == capH192* ]] && extra=(--height 192)
    if [ $v = core ]; then line=$(run $b "${common[@]}" 2>/dev/null | last_json)
    else line=$(STARPU_LIMIT_CUDA_MEM=256 run $b "${common[@]}" "${extra[@]}" 2>/dev/null | last_json); fi
    echo "{\"variant\": \"$v\", \"round\": $round, \"report\": ${line:-null}}" >> "$rows"
  done
done
STARPU_LIMIT_CUDA_MEM=256 run jacobi2d "${common[@]}" --trace "$out/trace-cap" 2>/dev/null | last_json | cut -c1-100
STARPU_LIMIT_CUDA_MEM=256 run jacobi2d-snake "${common[@]}" --height 192 --trace "$out/trace-capH192-snake" 2>/dev/null | last_json | cut -c1-100
run jacobi2d "${common[@]}" --tile 2048x2048 --height 108 --kernel-height 12 --trace "$out/trace-same" 2>/dev/null | last_json | cut -c1-100
du -sh "$out"/trace-*
python3 - "$rows" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:
    if r["report"]: by.setdefault(r["variant"], []).append(r["report"])
base = statistics.median(x["seconds"] for x in by["core"]) if "core" in by else None
print(f"{'variant':14} {'tile':>11} {'H':>4} {'k':>3} {'median s':>9} {'spread':>13} {'GCUPS':>7} {'PCIe GB':>8} {'vs core':>7}")
for v, rep in by.items():
    s = sorted(x["seconds"] for x in rep); m = statistics.median(s); r = rep[0]
    print(f"{v:14} {r['tile']:>11} {r['height']:>4} {r['kernel_height']:>3} {m:9.4f} {s[0]:6.3f}-{s[-1]:6.3f} "
          f"{statistics.median(x['gcups'] for x in rep):7.1f} {statistics.median(x['pcie_bytes'] for x in rep)/1e9:8.2f} "
          f"{base / m if base else 0:7.3f}")
PY
