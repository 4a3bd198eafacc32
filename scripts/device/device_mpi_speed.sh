#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# Where multi-rank time goes on one machine (issue 12): jacobi2d on the CPUs,
# 1 rank against 2 and 4 ranks, short and long runs (fixed cost against cost
# per stage), and 2 ranks sharing the GPU against 1; interleaved rounds,
# medians of the apps' own timings. A table last.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"; cd "$out"
source "$here/mpi_ranked.sh"
seconds() { python3 -c "import json,sys; print(json.loads(sys.stdin.read().splitlines()[-1])['seconds'])" 2>/dev/null || echo nan; }
declare -A times
run_case() {  # name ranks devices steps
  local name=$1 ranks=$2 devices=$3 steps=$4
  local args="--size 8192 --tile 1024x1024 --height 8 --steps $steps --devices $devices --json"
  if [ "$ranks" = 1 ]; then t=$(ranked jacobi2d $args | seconds)
  else t=$($mpi -np "$ranks" bash -c 'ranked "$@"' ranked jacobi2d $args 2>"$name.err" | seconds); fi
  times[$name]="${times[$name]:-} $t"
}
for round in 1 2 3; do
  for steps in 16 256; do
    for ranks in 1 2 4; do run_case "cpu-r$ranks-s$steps" $ranks cpu $steps; done
    for ranks in 1 2; do run_case "gpu-r$ranks-s$steps" $ranks gpu $steps; done
  done
  echo "round $round done"
done
echo "case            seconds (3 rounds)            median"
for name in $(printf '%s\n' "${!times[@]}" | sort); do
  median=$(printf '%s\n' ${times[$name]} | sort -g | sed -n 2p)
  printf '%-14s %-34s %s\n' "$name" "${times[$name]}" "$median"
done
