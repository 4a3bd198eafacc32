#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# Out of core (issue 11): one app, in core (automatic plan) against several
# capped plans (tiles, heights), interleaved rounds, medians; a table last.
# Env: APP (himeno), SIZE (L), STEPS (128), CAP (MiB, 448; 0 runs the plans
# in core too), ROUNDS (2),
# PROFILE_SIZE (the untimed run that profiles the GPU first; PROFILE_TIMEOUT s,
# 240), VARIANTS: plans separated by ';', each "label|app arguments" (an empty
# argument list is the automatic plan), RUN_TIMEOUT (s a run, 120).
# JSON rows in $OUT/ooc_variants.jsonl.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
app=${APP:-himeno}; size=${SIZE:-L}; steps=${STEPS:-128}; cap=${CAP:-448}; rounds=${ROUNDS:-2}
variants=${VARIANTS:-"auto|"}
for value in "$steps" "$rounds"; do
  [[ $value =~ ^[1-9][0-9]*$ ]] || { echo "device_ooc_variants: STEPS and ROUNDS must be whole numbers > 0, got '$value'" >&2; exit 2; }
done
[[ $cap =~ ^[0-9]+$ ]] || { echo "device_ooc_variants: CAP must be a whole number of MiB (0: no cap), got '$cap'" >&2; exit 2; }
limit=(); [ "$cap" -gt 0 ] && limit=(STARPU_LIMIT_CUDA_MEM="$cap")
[ -x "$here/bin/$app" ] || { echo "device_ooc_variants: no program bin/$app" >&2; exit 2; }
common=(--devices gpu --size "$size" --steps "$steps" --json)
last_json() { grep '^{' | tail -1; }
# The GPU profile is made (and cached) before the timed rounds.
profile_size=${PROFILE_SIZE:-$([ "$app" = himeno ] && echo S || echo 1024)}
timeout "${PROFILE_TIMEOUT:-240}" "$here/run.sh" "$app" --devices gpu --size "$profile_size" --steps 16 --json > /dev/null 2>&1 ||
  echo "device_ooc_variants: the profiling run ended with status $? (the timed runs will profile again)" >&2
rows=$out/ooc_variants.jsonl; : > "$rows"
IFS=';' read -r -a plans <<< "$variants"
# A run without a report leaves its stderr's last lines (and the exit status)
# in $OUT/no-report-<round>-<n>.txt, so that a refusal or a timeout says which.
run_one() {  # round, label, env..., -- app arguments...
  local round=$1 label=$2; shift 2
  local env_args=(); while [ "$1" != -- ]; do env_args+=("$1"); shift; done; shift
  local err report status line
  err=$(mktemp); report=$(mktemp)
  env "${env_args[@]}" timeout "${RUN_TIMEOUT:-120}" "$here/run.sh" "$app" "${common[@]}" "$@" >"$report" 2>"$err"
  status=$?
  line=$(last_json < "$report")
  if [ -z "$line" ]; then
    failures=$(( failures + 1 ))
    { echo "variant: $label, round $round, exit status $status (124: RUN_TIMEOUT)"; tail -5 "$err"; } > "$out/no-report-$round-$failures.txt"
  fi
  rm -f "$err" "$report"
  echo "{\"variant\": \"$label\", \"round\": $round, \"report\": ${line:-null}}" >> "$rows"
}
failures=0
for round in $(seq "$rounds"); do
  run_one "$round" "in core" --
  for p in "${plans[@]}"; do
    read -r -a args <<< "${p#*|}"
    run_one "$round" "${p%%|*}" "${limit[@]}" -- "${args[@]}"
  done
done
python3 - "$rows" "$app" "$size" "$cap" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {}
for r in rows:
    by.setdefault(r["variant"], [])
    if r["report"]: by[r["variant"]].append(r["report"])
core = by.get("in core") or []
core_m = statistics.median(x["seconds"] for x in core) if core else None
print(f"{sys.argv[2]} {sys.argv[3]}, capped to {sys.argv[4]} MiB; seconds, medians of interleaved rounds")
print(f"{'variant':14} {'tile':>14} {'H':>4} {'k':>3} {'n':>2} {'median s':>9} {'spread':>13} {'PCIe GB':>8} {'vs core':>8}")
for v, rep in by.items():
    if not rep: print(f"{v:14} no report"); continue
    s = sorted(x["seconds"] for x in rep); m = statistics.median(s); r = rep[0]
    ratio = core_m / m if core_m else float("nan")
    print(f"{v:14} {r['tile']:>14} {r['height']:>4} {r['kernel_height']:>3} {len(s):2} {m:9.4f} {s[0]:6.3f}-{s[-1]:6.3f} "
          f"{statistics.median(x.get('pcie_bytes', 0) for x in rep) / 1e9:8.2f} {ratio:8.3f}")
PY
