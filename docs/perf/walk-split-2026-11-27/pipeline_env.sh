#!/usr/bin/env bash
# Out-of-core jacobi2d 16384^2 capped to a quarter (256 MiB): StarPU's CUDA
# pipeline depth and clean-buffer targets, heights around 192, the snake order
# (bin/jacobi2d-snake) against the committed order (bin/jacobi2d); interleaved rounds.
here=$(cd "$(dirname "$0")" && pwd); cd "$here"
out=${OUT:-/tmp/out}; mkdir -p "$out"
nvidia-smi -L
run() { timeout "${RUN_TIMEOUT:-120}" ./run.sh "$@"; }
last_json() { grep '^{' | tail -1; }
common=(--devices gpu --size 16384 --steps 512 --json)
# The GPU profile made and cached first, uncapped, by each binary.
for b in jacobi2d jacobi2d-snake; do run $b --devices gpu --size 4096 --steps 64 --json >/dev/null 2>&1; done
rows=$out/pipeline.jsonl; : > "$rows"
for round in 1 2 3; do
  for v in core H192 H192-snake H192-snake-pipe1 H192-snake-pipe4 H192-snake-clean H144-snake H240-snake auto-snake; do
    b=jacobi2d; [[ $v == *snake* ]] && b=jacobi2d-snake
    env=(STARPU_LIMIT_CUDA_MEM=256); extra=()
    case $v in
      core) env=() ;;
      H*) h=${v#H}; extra=(--height "${h%%-*}") ;;
    esac
    [[ $v == *pipe1 ]] && env+=(STARPU_CUDA_PIPELINE=1)
    [[ $v == *pipe4 ]] && env+=(STARPU_CUDA_PIPELINE=4)
    [[ $v == *clean ]] && env+=(STARPU_MINIMUM_CLEAN_BUFFERS=30 STARPU_TARGET_CLEAN_BUFFERS=50)
    line=$(env "${env[@]}" ./run.sh $b "${common[@]}" "${extra[@]}" 2>/dev/null | last_json)
    echo "{\"variant\": \"$v\", \"round\": $round, \"report\": ${line:-null}}" >> "$rows"
  done
done
python3 - "$rows" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:
    if r["report"]: by.setdefault(r["variant"], []).append(r["report"])
base = statistics.median(x["seconds"] for x in by["core"]) if "core" in by else None
print(f"{'variant':18} {'tile':>11} {'H':>4} {'k':>3} {'median s':>9} {'spread':>13} {'GCUPS':>7} {'PCIe GB':>8} {'vs core':>7}")
for v, rep in by.items():
    s = sorted(x["seconds"] for x in rep); m = statistics.median(s); r = rep[0]
    print(f"{v:18} {r['tile']:>11} {r['height']:>4} {r['kernel_height']:>3} {m:9.4f} {s[0]:6.3f}-{s[-1]:6.3f} "
          f"{statistics.median(x['gcups'] for x in rep):7.1f} {statistics.median(x['pcie_bytes'] for x in rep)/1e9:8.2f} "
          f"{base / m if base else 0:7.3f}")
PY
