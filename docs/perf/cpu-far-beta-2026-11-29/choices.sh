#!/usr/bin/env bash
# Which height each build's model chooses for the ten cases of scripts/height_check.sh.
export STARPU_SILENT=1
cases="jacobi2d 1024 256;hotspot 1024 1000;life 1024 256;jacobi3d 96 128;pathfinder 100000 256;jacobi2d 16384 32;hotspot 16384 32;life 32768 32;jacobi3d 512 16;pathfinder 16777216 32"
IFS=';' read -ra list <<< "$cases"
for build in new old; do
  dir=/work/main/build/apps; [ $build = old ] && dir=/tmp/diag/build/apps
  for c in "${list[@]}"; do
    read -r app size steps <<< "$c"
    line=$(TRAPEZE_HOME=/tmp/beta/home-$build timeout 900 "$dir/$app" --size $size --steps $steps --json 2>&1 | grep '^{' | tail -1)
    echo "$build $app $size $steps $(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(d["height"], d["tile"], round(d["seconds"],4), d.get("profiled"))' "$line" 2>&1)"
  done
done
