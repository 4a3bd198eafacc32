#!/usr/bin/env bash
# Runs from inside the GPU bundle (scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/).
# The small-cap stalls (issue 11) end: the runs that waited forever in StarPU's
# memory manager now leave after TRAPEZE_STALL_SECONDS with one line and exit
# 3, and the runs that finished still finish. A table last.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
stall=${STALL:-10}
"$here/run.sh" jacobi2d --devices gpu --size 4096 --steps 16 --json >/dev/null 2>&1
"$here/run.sh" cip --devices gpu --size 2048x2048 --steps 16 --json >/dev/null 2>&1
cases=(
  "jacobi2d:32:--size 4096 --steps 96 --height 4"
  "jacobi2d:16:--size 4096 --steps 96 --height 4"
  "cip:20:--size 2048x2048 --steps 96"
  "cip:32:--size 2048x2048 --steps 96"
  "cip:48:--size 2048x2048 --steps 96"
  "jacobi2d:256:--size 16384 --steps 64"
)
names=()
for c in "${cases[@]}"; do
  IFS=: read -r app cap args <<<"$c"
  tag=$app-$cap
  ( start=$(date +%s.%N)
    env STARPU_NCPU=2 STARPU_LIMIT_CUDA_MEM=$cap TRAPEZE_STALL_SECONDS=$stall timeout 120 "$here/run.sh" $app --devices gpu $args --json \
      >"$out/$tag.out" 2>"$out/$tag.err"
    echo "$? $(python3 -c "import time,sys; print(f'{time.time()-float(sys.argv[1]):.1f}')" "$start")" >"$out/$tag.rc" ) &
  names+=("$tag|$args")
done
wait
echo "== stall guard (TRAPEZE_STALL_SECONDS=$stall; rc 3 = abandoned with a line, 124 = killed at 120 s)"
for n in "${names[@]}"; do
  tag=${n%%|*}; args=${n#*|}
  read -r rc took <"$out/$tag.rc"
  line=$(grep -a "error:" "$out/$tag.err" | head -1 | cut -c1-230)
  ok=$(tail -1 "$out/$tag.out" | grep -o '"seconds":[0-9.]*' | head -1)
  printf '%-14s %-36s rc=%-3s %6ss %s %s\n' "$tag MiB" "$args" "$rc" "$took" "$ok" "$line"
done
