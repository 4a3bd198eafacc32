#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# Out-of-core on one GPU (issue 11): jacobi2d float with the GPU's memory
# capped by STARPU_LIMIT_CUDA_MEM to a quarter of the domain, against the same
# size in core, interleaved rounds, medians. Variants (VARIANTS, space-separated names):
#   core        in core, automatic tile and heights
#   core-same   in core with the out-of-core run's tile and heights
#   cap         capped, automatic (out-of-core tile, blocking-factor height, tiles streamed)
#   cap-nostream  capped, automatic, without starpu_data_wont_use write-back
#   cap-dmda    capped, automatic, under dmda (prefetching on push)
#   capH<N>     capped, automatic tile, height N
# Env: SIZE (32768), STEPS (512), ROUNDS (3), KH (kernel height, 8). JSON rows in $OUT/out_of_core.json; a table last.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
run_bundle=$here/run.sh
# Every run bounded: an out-of-core run that cannot fit would evict and fetch forever.
run() { timeout "${RUN_TIMEOUT:-120}" "$run_bundle" "$@"; }
out=${OUT:-/tmp/out}; mkdir -p "$out"
size=${SIZE:-32768}; steps=${STEPS:-512}; rounds=${ROUNDS:-3}; kh=${KH:-8}
variants=${VARIANTS:-"core core-same cap cap-nostream cap-dmda"}
domain_mib=$(( size * size * 4 / 1048576 ))
cap=$(( domain_mib / 4 ))
rows=$out/out_of_core.jsonl; : > "$rows"
common=(jacobi2d --devices gpu --size "$size" --steps "$steps" --json)
log=$out/log.txt; : > "$log"
say() { echo "$*" | tee -a "$log"; }
# Uncapped first: the GPU height profile (a 4096^2 tile) is made and cached without the cap.
say "uncapped small run: $(run jacobi2d --devices gpu --size 4096 --steps 64 --json 2>&1 | tail -1)"
# Correctness: a smaller domain, capped to a quarter of itself, against the CPU reference.
vsize=${VERIFY_SIZE:-4096}; vcap=$(( vsize * vsize * 4 / 1048576 / 4 ))
say "verify (capped to $vcap MiB): $(STARPU_LIMIT_CUDA_MEM=$vcap run jacobi2d --devices gpu --size "$vsize" --steps 96 --verify --json 2>&1 | tail -1)"
# The capped automatic run first: its tile and heights are core-same's.
probe=$(STARPU_LIMIT_CUDA_MEM=$cap run "${common[@]}" 2>"$out/probe.err" | tail -1)
say "probe (capped, automatic): $probe"
tile=$(python3 -c "import json,sys; print(json.loads(sys.argv[1])['tile'])" "$probe")
height=$(python3 -c "import json,sys; print(json.loads(sys.argv[1])['height'])" "$probe")
kernel=$(python3 -c "import json,sys; print(json.loads(sys.argv[1])['kernel_height'])" "$probe")
for round in $(seq 1 "$rounds"); do
  for v in $variants; do
    case $v in
      core) line=$(run "${common[@]}" 2>>"$out/err.log" | tail -1) ;;
      core-same) line=$(run "${common[@]}" --tile "$tile" --height "$height" --kernel-height "$kernel" 2>>"$out/err.log" | tail -1) ;;
      cap) line=$(STARPU_LIMIT_CUDA_MEM=$cap run "${common[@]}" 2>>"$out/err.log" | tail -1) ;;
      cap-nostream) line=$(STARPU_LIMIT_CUDA_MEM=$cap run "${common[@]}" --stream off 2>>"$out/err.log" | tail -1) ;;
      cap-dmda) line=$(STARPU_SCHED=dmda STARPU_LIMIT_CUDA_MEM=$cap run "${common[@]}" 2>>"$out/err.log" | tail -1) ;;
      capH*) line=$(STARPU_LIMIT_CUDA_MEM=$cap run "${common[@]}" --height "${v#capH}" --kernel-height "$kh" 2>>"$out/err.log" | tail -1) ;;
      *) echo "unknown variant $v"; continue ;;
    esac
    echo "{\"variant\": \"$v\", \"round\": $round, \"report\": ${line:-null}}" >> "$rows"
    say "round $round $v: $(echo "$line" | cut -c1-400)"
  done
done
tail -5 "$out/err.log" 2>/dev/null
python3 - "$rows" "$out/out_of_core.json" "$size" "$cap" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
json.dump(rows, open(sys.argv[2], "w"), indent=1)
by = {}
for r in rows:
    if r["report"]:
        by.setdefault(r["variant"], []).append(r["report"])
base = statistics.median(x["seconds"] for x in by.get("core", [])) if by.get("core") else None
print(f"== jacobi2d float {sys.argv[3]}^2, STARPU_LIMIT_CUDA_MEM={sys.argv[4]} MiB for the capped runs")
print(f"{'variant':14} {'tile':>11} {'H':>4} {'k':>3} {'median s':>9} {'spread':>13} {'GCUPS':>7} {'PCIe GB':>8} {'verified':>8} {'vs core':>7}")
for v, reports in by.items():
    s = sorted(x["seconds"] for x in reports)
    m = statistics.median(s)
    r = reports[0]
    ratio = f"{base / m:.3f}" if base else "-"
    print(f"{v:14} {r['tile']:>11} {r['height']:>4} {r['kernel_height']:>3} {m:9.4f} {s[0]:6.3f}-{s[-1]:6.3f} "
          f"{statistics.median(x['gcups'] for x in reports):7.1f} {statistics.median(x['pcie_bytes'] for x in reports)/1e9:8.2f} "
          f"{str(r['verified']):>8} {ratio:>7}")
PY
