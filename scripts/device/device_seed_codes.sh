#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# Himeno and CIP on one GPU (issue 11): their stencils against the sequential
# reference on CUDA workers (gpu_equality_test, and capped app runs with
# --verify), then each app out of core with STARPU_LIMIT_CUDA_MEM set to a
# quarter of its domain's data (every array, read-only ones included) against
# the same run in core, interleaved rounds, medians.
# Env: CASES ("himeno:L:128 himeno:XL:64 cip:16384x16384:256": app:size:steps), ROUNDS (3).
# JSON rows in $OUT/seed_codes.json; a table last.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
run() { timeout "${RUN_TIMEOUT:-240}" "$here/run.sh" "$@"; }
out=${OUT:-/tmp/out}; mkdir -p "$out"
rounds=${ROUNDS:-3}
cases=${CASES:-"himeno:L:128 himeno:XL:64 cip:16384x16384:256"}
rows=$out/seed_codes.jsonl; : > "$rows"
log=$out/log.txt; : > "$log"
say() { echo "$*" | tee -a "$log"; }
# Bytes of a domain's data per cell: himeno's 14 float arrays, cip's 5.
data_bytes() { case $1 in himeno) echo 56 ;; cip) echo 20 ;; esac; }
cells() { python3 -c "
import sys
names = {'XS': (64, 32, 32), 'S': (128, 64, 64), 'M': (256, 128, 128), 'L': (512, 256, 256), 'XL': (1024, 512, 512)}
s = sys.argv[1]
e = names[s] if s in names else tuple(int(v) for v in s.split('x'))
n = 1
for v in e: n *= v
print(n)" "$1"; }
quarter_mib() { echo $(( $(cells "$2") * $(data_bytes "$1") / 4 / 1048576 )); }

say "== GPU equality of the new stencils"
run gpu_equality_test --gtest_filter='GpuEquality.Himeno:GpuEquality.Cip*:GpuSanitizer.*' > "$out/gpu_equality.txt" 2>&1
say "$(grep -E '^\[  (PASSED|FAILED) |OK \]|FAILED  \]' "$out/gpu_equality.txt" | tail -6)"
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
if [ -x "$sanitizer" ]; then
  timeout 300 "$here/run.sh" "$sanitizer" --tool memcheck --error-exitcode 9 --print-limit 20 "$here/bin/gpu_equality_test" \
    --gtest_filter='GpuSanitizer.*' > "$out/memcheck.txt" 2>&1
  say "compute-sanitizer memcheck (GpuSanitizer.*, every app): exit $? $(grep -E 'ERROR SUMMARY' "$out/memcheck.txt" | tail -1)"
fi
# Uncapped small runs first: the GPU height profiles are made and cached without a cap.
for app in himeno cip; do say "uncapped $app: $(run $app --devices gpu --steps 32 --json 2>&1 | tail -1 | cut -c1-300)"; done
say "== capped runs against the CPU reference"
say "himeno M capped to $(quarter_mib himeno M) MiB: $(STARPU_LIMIT_CUDA_MEM=$(quarter_mib himeno M) run himeno --devices gpu --size M --steps 40 --verify --json 2>>"$out/err.log" | tail -1 | cut -c1-600)"
say "cip 2048^2 capped to $(quarter_mib cip 2048x2048) MiB: $(STARPU_LIMIT_CUDA_MEM=$(quarter_mib cip 2048x2048) run cip --devices gpu --size 2048x2048 --steps 96 --verify --json 2>>"$out/err.log" | tail -1 | cut -c1-600)"

for c in $cases; do
  IFS=: read -r app size steps <<<"$c"
  cap=$(quarter_mib "$app" "$size")
  common=("$app" --devices gpu --size "$size" --steps "$steps" --json)
  # The capped automatic run first: its tile and heights are core-same's (in
  # core with the out-of-core plan, which tells the plan's cost from the cap's).
  probe=$(STARPU_LIMIT_CUDA_MEM=$cap run "${common[@]}" 2>>"$out/err.log" | tail -1)
  plan=($(python3 -c "import json,sys; r=json.loads(sys.argv[1]); print(r['tile'], r['height'], r['kernel_height'])" "$probe"))
  say "probe $c capped: tile ${plan[0]} H ${plan[1]} k ${plan[2]}"
  for round in $(seq 1 "$rounds"); do
    for v in core core-same cap; do
      case $v in
        cap) line=$(STARPU_LIMIT_CUDA_MEM=$cap run "${common[@]}" 2>>"$out/err.log" | tail -1) ;;
        core) line=$(run "${common[@]}" 2>>"$out/err.log" | tail -1) ;;
        core-same) line=$(run "${common[@]}" --tile "${plan[0]}" --height "${plan[1]}" --kernel-height "${plan[2]}" 2>>"$out/err.log" | tail -1) ;;
      esac
      echo "{\"case\": \"$c\", \"cap_mib\": $cap, \"variant\": \"$v\", \"round\": $round, \"report\": ${line:-null}}" >> "$rows"
      say "round $round $c $v: $(echo "$line" | cut -c1-400)"
    done
  done
done
tail -5 "$out/err.log" 2>/dev/null
python3 - "$rows" "$out/seed_codes.json" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
json.dump(rows, open(sys.argv[2], "w"), indent=1)
by = {}
for r in rows:
    if r["report"]:
        by.setdefault((r["case"], r["variant"], r["cap_mib"]), []).append(r["report"])
print(f"{'case':24} {'variant':7} {'cap MiB':>8} {'tile':>14} {'H':>4} {'k':>3} {'median s':>9} {'spread':>15} {'PCIe GB':>8} {'vs core':>7}")
for (case, v, cap), reports in by.items():
    s = sorted(x["seconds"] for x in reports)
    m = statistics.median(s)
    core = by.get((case, "core", cap))
    base = statistics.median(x["seconds"] for x in core) if core else None
    r = reports[0]
    print(f"{case:24} {v:7} {cap if v == 'cap' else '-':>8} {r['tile']:>14} {r['height']:>4} {r['kernel_height']:>3} {m:9.4f} "
          f"{s[0]:7.3f}-{s[-1]:7.3f} {statistics.median(x['pcie_bytes'] for x in reports)/1e9:8.2f} "
          f"{(base / m if base else float('nan')):7.3f}")
PY
