#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# The small-cap hang (issue 11): runs whose STARPU_LIMIT_CUDA_MEM passes the
# fit check yet do not finish. Each variant under a 40 s limit: which knob
# (task window, write-back hint, scheduler) lets it finish. A table last.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
"$here/run.sh" jacobi2d --devices gpu --size 4096 --steps 16 --json >/dev/null 2>&1
"$here/run.sh" cip --devices gpu --size 2048x2048 --steps 16 --json >/dev/null 2>&1
table=()
for c in "jacobi2d:16:--size 4096 --steps 96" "cip:20:--size 2048x2048 --steps 96"; do
  IFS=: read -r app cap args <<<"$c"
  for v in default window8 window2 streamoff dmda height4; do
    extra=(); env=()
    case $v in
      window8) extra=(--window 8) ;; window2) extra=(--window 2) ;; streamoff) extra=(--stream off) ;;
      dmda) env=(STARPU_SCHED=dmda) ;; height4) extra=(--height 4) ;;
    esac
    start=$(date +%s.%N)
    env STARPU_SILENT=0 STARPU_LIMIT_CUDA_MEM=$cap "${env[@]}" timeout 40 "$here/run.sh" $app --devices gpu $args --json "${extra[@]}" \
      > "$out/$app-$v.out" 2> "$out/$app-$v.err"
    rc=$?
    took=$(python3 -c "import time,sys; print(f'{time.time()-float(sys.argv[1]):.1f}')" "$start")
    summary=$(tail -1 "$out/$app-$v.out" | python3 -c "
import json,sys
t=sys.stdin.read().strip()
try:
    r=json.loads(t); print(f\"tile={r['tile']} H={r['height']} k={r['kernel_height']} window={r['window']} s={r['seconds']:.3f}\")
except Exception: print('-')")
    table+=("$(printf '%-9s %-4s %-10s rc=%-4s %6ss %s' "$app" "$cap" "$v" "$rc" "$took" "$summary")")
    echo "${table[-1]}"; tail -3 "$out/$app-$v.err" | cut -c1-300
  done
done
echo "== small caps: which variant finishes (rc 124 = killed at 40 s)"
printf '%s\n' "${table[@]}"
