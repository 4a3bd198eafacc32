#!/usr/bin/env bash
# Runs from inside the GPU bundle: scripts/make_gpu_bundle.sh; cp scripts/device/*.sh gpu-bundle/; then on the GPU machine gpu-bundle/<this script>.
# Where the two-GPU runs lose time (issue 12): FxT task traces of jacobi2d and
# jacobi3d on 1 GPU, on 2 GPUs in one process and on 2 MPI ranks, the same
# sizes as device_two_gpus.sh, plus the multi-GPU equality test. The traces
# come back as one xz archive; draw them here with scripts/timeline.py and
# read the phases with scripts/trace_phases.py. A table last.
# Env: J2 (49152x49152:1024), J3 (1024x1024x1024:512), VARIANTS ("1gpu 2gpu 2rank"),
# BUNDLE_LIBS (a bundle folder of another StarPU build to run, e.g. lib-blocking).
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-/tmp/out}; mkdir -p "$out"
traces=/tmp/traces; rm -rf "$traces"; mkdir -p "$traces"
# Task, data, worker and MPI events only: the default (every category) writes
# hundreds of MB a second of lock and scheduler events.
export STARPU_FXT_EVENTS=${STARPU_FXT_EVENTS:-"USER|TASK|DATA|WORKER|DSM|MPI"}
nvidia-smi -L
source "$here/mpi_ranked.sh"
timeout 150 "$here/run.sh" gpu_equality_test --gtest_filter=GpuEquality.EveryGpuUnderTheDefaultPolicy > "$out/every_gpu_test.txt" 2>&1
echo "EveryGpuUnderTheDefaultPolicy on $(nvidia-smi -L | wc -l) GPUs: rc $? ($(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$out/every_gpu_test.txt" | tr '\n' ' '))"
# The height profiles, made once per GPU count (untraced).
for app in jacobi2d jacobi3d; do
  for g in 1 2; do STARPU_NCUDA=$g timeout 300 "$here/run.sh" $app --devices gpu --steps 16 --json >/dev/null 2>>"$out/err.log"; done
done
IFS=: read -r j2size j2steps <<<"${J2:-49152x49152:1024}"
IFS=: read -r j3size j3steps <<<"${J3:-1024x1024x1024:512}"
rows=$out/timeline_runs.jsonl; : > "$rows"
for app in jacobi2d jacobi3d; do
  if [ "$app" = jacobi2d ]; then size=$j2size steps=$j2steps; else size=$j3size steps=$j3steps; fi
  for v in ${VARIANTS:-1gpu 2gpu 2rank}; do
    for traced in 0 1; do
      args=(--devices gpu --size "$size" --steps "$steps" --checksum --json)
      [ $traced = 1 ] && args+=(--trace "$traces/$app-$v")
      case $v in
        1gpu) line=$(STARPU_NCUDA=1 timeout 300 "$here/run.sh" $app "${args[@]}" 2>>"$out/err.log" | tail -1) ;;
        2gpu) line=$(STARPU_NCUDA=2 timeout 300 "$here/run.sh" $app "${args[@]}" 2>>"$out/err.log" | tail -1) ;;
        2rank) line=$(timeout 300 $mpi -np 2 bash -c 'ranked "$@"' ranked $app "${args[@]}" 2>>"$out/err.log" | tail -1) ;;
      esac
      echo "{\"app\": \"$app\", \"variant\": \"$v\", \"traced\": $traced, \"report\": ${line:-null}}" >> "$rows"
      echo "$app $v traced=$traced: $(echo "$line" | grep -o '"seconds": [0-9.]*')"
    done
  done
done
ls -la "$traces"/*/ | head -30
tar -C "$traces" -cJf "$out/traces.tar.xz" . && ls -la "$out/traces.tar.xz"
tail -3 "$out/err.log"
if command -v compute-sanitizer >/dev/null; then
  timeout ${SANITIZER_SECONDS:-100} env STARPU_HOME="$here/starpu-home" TRAPEZE_HOME="$here/trapeze-home" LD_LIBRARY_PATH="${BUNDLE_LIBS:+$here/$BUNDLE_LIBS:}$here/lib:/usr/local/cuda/lib64" \
    compute-sanitizer --tool memcheck --error-exitcode 9 "$here/bin/gpu_equality_test" --gtest_filter=GpuEquality.EveryGpuUnderTheDefaultPolicy \
    > "$out/every_gpu_memcheck.txt" 2>&1
  echo "memcheck of it: rc $? ($(grep -E 'ERROR SUMMARY' "$out/every_gpu_memcheck.txt" | tail -1))"
fi
