#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# Out of core (issue 11): two builds of one app head to head, in core and
# capped by STARPU_LIMIT_CUDA_MEM, interleaved rounds, medians; a table last
# (device_plans.sh runs them; each build's capped row against its in-core one).
# BUILDS names programs in bin/ (e.g. "jacobi2d jacobi2d-prev": copy the other
# build's binary there under a second name). Each build keeps its own GPU
# profile (one cache file shared by two builds is profiled again at every
# run, and each may choose another plan): PLAN fixes the plan for every run
# ("--height 180 --kernel-height 12", empty for automatic), so that the rows
# compare the builds and not their choices.
# Env: APP (jacobi2d), SIZE (16384; any --size, e.g. L for himeno, when CAP
# is given), STEPS (512), CAP (MiB; default a quarter of a float SIZE² domain),
# ROUNDS (5), BUILDS, PLAN, PROFILE_SIZE (4096). JSON rows in $OUT/ooc_builds.jsonl.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
app=${APP:-jacobi2d}; size=${SIZE:-16384}; steps=${STEPS:-512}; rounds=${ROUNDS:-5}
builds=${BUILDS:-"$app ${app}-prev"}
if [ -z "${CAP:-}" ]; then
  [[ $size =~ ^[1-9][0-9]*$ ]] || { echo "device_ooc_builds: SIZE '$size' is not a whole number; give CAP (MiB) with it" >&2; exit 2; }
  cap=$(( size * size * 4 / 1048576 / 4 ))
else
  cap=$CAP
fi
for value in "$steps" "$rounds" "$cap"; do
  [[ $value =~ ^[1-9][0-9]*$ ]] || { echo "device_ooc_builds: STEPS, ROUNDS and CAP must be whole numbers > 0, got '$value'" >&2; exit 2; }
done
cases=""; profiles=""
for b in $builds; do
  run="$b --size $size --steps $steps ${PLAN:-}"
  cases+="$b: core|$b|0|$run;$b: cap|$b|$cap|$run;"
  profiles+="$b|$b --size ${PROFILE_SIZE:-4096} --steps 16;"
done
nvidia-smi -L
echo "capped to $cap MiB"
CASES=$cases PROFILES=$profiles ROUNDS=$rounds PROFILE_TIMEOUT=120 ROWS=ooc_builds.jsonl exec "$here/device_plans.sh"
