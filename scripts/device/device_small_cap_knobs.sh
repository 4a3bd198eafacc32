#!/usr/bin/env bash
# Runs from inside the GPU bundle (scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/).
# The small-cap hang (issue 11), second look: which StarPU knob lets a capped
# run finish, and from which cap on the default finishes. Variants run side
# by side (one GPU, two CPU workers each), each under LIMIT seconds, with
# StarPU's watchdog on and --progress, so a stall shows when it starts.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
limit=${LIMIT:-45}
"$here/run.sh" jacobi2d --devices gpu --size 4096 --steps 16 --json >/dev/null 2>&1
"$here/run.sh" cip --devices gpu --size 2048x2048 --steps 16 --json >/dev/null 2>&1
variants=${VARIANTS:-"
j:16:default:
j:16:pipe0:STARPU_CUDA_PIPELINE=0
j:16:pipe1:STARPU_CUDA_PIPELINE=1
j:16:clean0:STARPU_MINIMUM_CLEAN_BUFFERS=0,STARPU_TARGET_CLEAN_BUFFERS=0
j:16:eager:STARPU_SCHED=eager
j:16:noprefetch:STARPU_PREFETCH=0
j:24:default:
j:32:default:
c:20:default:
c:20:pipe0:STARPU_CUDA_PIPELINE=0
c:20:pipe1:STARPU_CUDA_PIPELINE=1
c:20:clean0:STARPU_MINIMUM_CLEAN_BUFFERS=0,STARPU_TARGET_CLEAN_BUFFERS=0
c:20:eager:STARPU_SCHED=eager
c:32:default:
c:48:default:
c:64:default:
"}
pids=()
names=()
for v in $variants; do
  IFS=: read -r app cap name envs <<<"$v"
  case $app in
    j) prog=jacobi2d; args=(--size 4096 --steps 96 --height 4) ;;
    c) prog=cip; args=(--size 2048x2048 --steps 96) ;;
  esac
  tag=$prog-$cap-$name
  env_list=(STARPU_SILENT=0 STARPU_NCPU=2 STARPU_LIMIT_CUDA_MEM=$cap STARPU_WATCHDOG_TIMEOUT=10000000)
  [ -n "$envs" ] && IFS=, read -r -a extra_env <<<"$envs" && env_list+=("${extra_env[@]}")
  ( start=$(date +%s.%N)
    env "${env_list[@]}" timeout "$limit" "$here/run.sh" $prog --devices gpu "${args[@]}" --json --progress >"$out/$tag.out" 2>"$out/$tag.err"
    echo "$? $(python3 -c "import time,sys; print(f'{time.time()-float(sys.argv[1]):.1f}')" "$start")" >"$out/$tag.rc" ) &
  pids+=($!); names+=("$tag")
done
wait
echo "== small caps, knobs (rc 124 = killed at ${limit} s)"
for tag in "${names[@]}"; do
  read -r rc took <"$out/$tag.rc"
  summary=$(tail -1 "$out/$tag.out" | python3 -c "
import json,sys
t=sys.stdin.read().strip()
try:
    r=json.loads(t); print(f\"tile={r['tile']} H={r['height']} s={r['seconds']:.3f}\")
except Exception: print('-')")
  last=$(grep -v '^\s*$' "$out/$tag.err" | grep -i -m1 -e 'error' -e 'not enough' -e watchdog | cut -c1-140)
  prog=$(grep -ao '[0-9.]*% of [0-9]* tasks' "$out/$tag.err" | tail -1)
  printf '%-26s rc=%-4s %6ss %-34s %-16s %s\n' "$tag" "$rc" "$took" "$summary" "$prog" "$last"
done
