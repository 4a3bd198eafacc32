#!/usr/bin/env bash
# Session 36, call 2: why the ring build stalls under caps where session 35's
# build ran (call 1: Himeno M 40 steps --skew auto under 96 MiB, Himeno L
# --skew 2:32 and 2:43 under 448 MiB). himeno-diag is this build with
# diagnostic switches from the environment (not committed): TRAPEZE_DIAG_
# NO_PREFETCH, OUT_RW (finished slabs RW, not W), RING_HOME (the ring
# registered over host memory, RW from the first task), NO_WONT_USE,
# WINDOW=n (tasks in StarPU); on a stall it prints the task reached and the
# GPU's used and available bytes.
set -uo pipefail
cd gpu-bundle
nvidia-smi -L | tee "$OUT/gpus.txt"
export TRAPEZE_HOME=$PWD/trapeze-home-n TRAPEZE_STALL_SECONDS=6
run() {  # label cap env... -- args
  local label=$1 cap=$2; shift 2
  local envs=(); while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  local t0=$(date +%s.%N)
  out=$(env STARPU_LIMIT_CUDA_MEM=$cap "${envs[@]}" timeout 40 ./run.sh "$@" --devices gpu --json 2>&1)
  local rc=$?
  printf "== %s\n%s\n" "$label" "$(tail -c 3000 <<< "$out")" >> "$OUT/runs.txt"
  printf '%-34s rc %3s %5.1fs %s %s\n' "$label" "$rc" "$(awk "BEGIN{print $(date +%s.%N) - $t0}")" \
    "$(grep -o '"tile":"[^"]*"\|"height":[0-9]*\|"seconds":[0-9.]*\|"verified":[a-z]*' <<< "$out" | paste -sd' ')" \
    "$(grep -o 'diag:.*' <<< "$out" | head -1)"
}
M="himeno-diag --size M --steps 40 --skew auto --verify"
run "M prev" 96 -- himeno-prev --size M --steps 40 --skew auto --verify
run "M default" 96 -- $M
run "M no prefetch" 96 TRAPEZE_DIAG_NO_PREFETCH=1 -- $M
run "M out RW" 96 TRAPEZE_DIAG_OUT_RW=1 -- $M
run "M ring home" 96 TRAPEZE_DIAG_RING_HOME=1 -- $M
run "M no wont_use" 96 TRAPEZE_DIAG_NO_WONT_USE=1 -- $M
run "M window 1" 96 TRAPEZE_DIAG_WINDOW=1 -- $M
run "M all" 96 TRAPEZE_DIAG_NO_PREFETCH=1 TRAPEZE_DIAG_OUT_RW=1 TRAPEZE_DIAG_RING_HOME=1 TRAPEZE_DIAG_NO_WONT_USE=1 TRAPEZE_DIAG_WINDOW=1 -- $M
run "M 160 MiB" 160 -- $M
run "M 2:8 96" 96 -- himeno-diag --size M --steps 40 --skew 2:8 --verify
run "M 4:8 96" 96 -- himeno-diag --size M --steps 40 --skew 4:8 --verify
L="himeno-diag --size L --steps 128 --skew 2:32"
run "L 2:32 prev" 448 -- himeno-prev --size L --steps 128 --skew 2:32
run "L 2:32" 448 -- $L
run "L 2:32 out RW" 448 TRAPEZE_DIAG_OUT_RW=1 -- $L
run "L 2:32 ring home" 448 TRAPEZE_DIAG_RING_HOME=1 -- $L
run "L 2:32 no prefetch" 448 TRAPEZE_DIAG_NO_PREFETCH=1 -- $L
run "L 2:32 window 1" 448 TRAPEZE_DIAG_WINDOW=1 -- $L
run "L 2:32 600" 600 -- $L
run "L 2:32 stats" 448 TRAPEZE_DIAG_STATS=1 STARPU_MEMORY_STATS=1 -- $L
