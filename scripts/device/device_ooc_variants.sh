#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# Out of core (issue 11): one app, in core (automatic plan) against several
# capped plans (tiles, heights), interleaved rounds, medians; a table last
# (device_plans.sh runs them).
# Env: APP (himeno), SIZE (L), STEPS (128), CAP (MiB, 448; 0 runs the plans
# in core too), ROUNDS (2),
# PROFILE_SIZE (the untimed run that profiles the GPU first; PROFILE_TIMEOUT s,
# 240), VARIANTS: plans separated by ';', each "label|app arguments" (an empty
# argument list is the automatic plan), RUN_TIMEOUT (s a run, 120).
# JSON rows in $OUT/ooc_variants.jsonl.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
app=${APP:-himeno}; size=${SIZE:-L}; steps=${STEPS:-128}; cap=${CAP:-448}
variants=${VARIANTS:-"auto|"}
for value in "$steps" "${ROUNDS:-2}"; do
  [[ $value =~ ^[1-9][0-9]*$ ]] || { echo "device_ooc_variants: STEPS and ROUNDS must be whole numbers > 0, got '$value'" >&2; exit 2; }
done
[[ $cap =~ ^[0-9]+$ ]] || { echo "device_ooc_variants: CAP must be a whole number of MiB (0: no cap), got '$cap'" >&2; exit 2; }
run="$app --size $size --steps $steps"
cases="in core|$app|0|$run"
IFS=';' read -r -a plans <<< "$variants"
for p in "${plans[@]}"; do cases+=";${p%%|*}|$app|$cap|$run ${p#*|}"; done
profile_size=${PROFILE_SIZE:-$([ "$app" = himeno ] && echo S || echo 1024)}
echo "$app $size, capped to $cap MiB"
CASES=$cases PROFILES="$app|$app --size $profile_size --steps 16" ROUNDS=${ROUNDS:-2} RUN_TIMEOUT=${RUN_TIMEOUT:-120} \
  ROWS=ooc_variants.jsonl exec "$here/device_plans.sh"
