#!/usr/bin/env bash
# The measurements behind docs/PERF.md's trapezoid sections: a height sweep per
# app (auto-chosen h against the best measured h), the two trapezoid modes, and
# jacobi2d far beyond the last-level cache. Writes CSVs and PNGs to $1 (default
# build/perf); $2 picks a part: sweeps, modes or all (default).
set -euo pipefail
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-$repo_root/build/perf}
mkdir -p "$out"
bash "$repo_root/scripts/build.sh" >/dev/null
export STARPU_SILENT=1
apps="$repo_root/build/apps"
sweep() {  # app size steps extra...
  local app=$1 size=$2 steps=$3; shift 3
  "$apps/$app" --size "$size" --steps "$steps" --sweep-height 1:32 --sweep-csv "$out/$app-sweep.csv" "$@" 2>/dev/null | tee "$out/$app-sweep.txt" | tail -3
  /usr/bin/python3 "$repo_root/scripts/plot_height_sweep.py" "$out/$app-sweep.csv" "$out/$app-sweep.png" >/dev/null
}
part=${2:-all}
case $part in sweeps|modes|all) ;; *) echo "perf_height.sh: unknown part '$part' (sweeps, modes or all)" >&2; exit 2;; esac
if [ "$part" != modes ]; then
  sweep jacobi2d 4096 64
  sweep jacobi3d 256 64
  sweep hotspot 4096 64
  sweep life 4096 64
  sweep pathfinder 200000 200
fi
[ "$part" != sweeps ] || exit 0
for mode in shrink full; do
  "$apps/jacobi2d" --size 16384 --steps 32 --tile 2048x512 --height 8 --mode $mode
  "$apps/hotspot" --size 4096 --steps 64 --tile 1024x256 --height 8 --mode $mode
  "$apps/life" --size 4096 --steps 64 --tile 1024x256 --height 8 --mode $mode
done
