#!/usr/bin/env bash
# Makes a self-contained bundle for a GPU machine with no network: the apps,
# benchmarks and test binaries built here, StarPU's libraries and every other
# library they need that is not part of a CUDA machine's base (glibc, libstdc++
# and the CUDA 13 libraries are taken from the machine itself), a run wrapper,
# and StarPU's calibration directory inside the bundle (so the bus and
# performance-model calibrations made on the GPU machine are kept with it).
#
#   scripts/make_gpu_bundle.sh [DIR]     # default: gpu-bundle (git-ignored), must stay under 64 MiB
#   BUILD=0 scripts/make_gpu_bundle.sh   # bundles what build/ holds now (e.g. a few targets built by hand)
#   BUNDLE_SKIP="gpu_kernel_probe gpu_layouts" scripts/make_gpu_bundle.sh   # leaves those programs out
#       (a run carries the bundle and the work tree together, 64 MiB in all)
#   DIR/run.sh build/apps/jacobi2d ...   # on the GPU machine: any bundled program
#   DIR/run_gpu_tests.sh                 # the GPU test label, then compute-sanitizer
set -euo pipefail
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bundle=${1:-$repo_root/gpu-bundle}
[ "${BUILD:-1}" = 0 ] || bash "$repo_root/scripts/build.sh" >/dev/null
build=$repo_root/build
rm -rf "$bundle"
mkdir -p "$bundle/bin" "$bundle/lib" "$bundle/starpu-home" "$bundle/trapeze-home"

programs=()
# The apps, the GPU test suites (label gpu) and the GPU benchmarks, with
# grid_copy_rates (host copy rates, which device scripts measure there). The
# suites and benchmarks of CPU workers alone stay behind: a GPU machine runs
# them no differently, and everything together (71 MiB) is more than a GPU
# run may carry (64 MiB with the work tree).
for p in "$build"/apps/{jacobi2d,jacobi3d,hotspot,life,pathfinder,himeno,cip,sor,heat2d,smith-waterman,dtw,sat,inthist} "$build"/tests/gpu_*_test "$build"/benchmarks/{gpu_*,grid_copy_rates}; do
  case "$(basename "$p")" in *.*|gpu_height_model_test) continue ;; esac  # not programs; the GPU model's CPU suite
  case " ${BUNDLE_SKIP:-} " in *" $(basename "$p") "*) continue ;; esac
  [ -x "$p" ] && [ -f "$p" ] && programs+=("$p")
done
mkdir -p "$bundle/tests"
cp "$repo_root/tests/mpi_apps_test.py" "$repo_root/tests/mpi_gpu_test.py" "$bundle/tests/"
cp "$repo_root/scripts/device/mpi_ranked.sh" "$bundle/"
for p in "${programs[@]}"; do
  cp "$p" "$bundle/bin/"
  strip --strip-unneeded "$bundle/bin/$(basename "$p")" 2>/dev/null || true
done

# Libraries: everything ldd resolves outside glibc, libstdc++/libgcc and CUDA.
is_base() {
  case "$(basename "$1")" in
    libc.so*|libm.so*|libdl.so*|librt.so*|libpthread.so*|ld-linux*|libstdc++.so*|libgcc_s.so*) return 0 ;;
    libcuda.so*|libcudart.so*|libcublas*|libcusparse*|libcusolver*|libnvJitLink*|libcufft*|libcurand*|libnvrtc*) return 0 ;;
  esac
  return 1
}
for p in "${programs[@]}"; do
  ldd "$p" | awk '$3 ~ /^\// {print $3}'
done | sort -u | while read -r lib; do
  is_base "$lib" && continue
  cp -L "$lib" "$bundle/lib/"
done
strip --strip-unneeded "$bundle"/lib/*.so* 2>/dev/null || true

cat >"$bundle/run.sh" <<'RUN'
#!/usr/bin/env bash
# Runs a bundled program: ./run.sh jacobi2d --size 16384 ... (a name in bin/ or a path).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# BUNDLE_LIBS=DIR (a folder of the bundle, e.g. lib-blocking): its libraries
# come first, so one bundle runs two builds of StarPU side by side.
export LD_LIBRARY_PATH="${BUNDLE_LIBS:+$here/$BUNDLE_LIBS:}$here/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export STARPU_HOME=${STARPU_HOME:-$here/starpu-home}
export TRAPEZE_HOME=${TRAPEZE_HOME:-$here/trapeze-home}
export STARPU_SILENT=${STARPU_SILENT:-1}
program=$1; shift
[ -x "$here/bin/$program" ] && program=$here/bin/$program
exec "$program" "$@"
RUN
cat >"$bundle/run_gpu_tests.sh" <<'RUN'
#!/usr/bin/env bash
# The GPU test label (every app on CUDA workers against the sequential
# reference), then the same binary under compute-sanitizer's memcheck and
# racecheck on a subset (the sanitizer slows kernels a hundredfold): small
# cases of every app's stencil kernels, and (memcheck) the skewed slabs' kernels.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export STARPU_NCPU=${STARPU_NCPU:-2}
status=0
"$here/run.sh" gpu_equality_test --gtest_filter=-GpuSanitizer.* || status=1
"$here/run.sh" gpu_sweep_test || status=1
"$here/run.sh" gpu_wavefront_test || status=1
"$here/run.sh" gpu_layout_test || status=1
# Ranks on GPUs (pieces through GPU mailboxes and through MPI), on the
# machine's Open MPI library (it matches its mpirun: $mpilib), the bundle's for the rest.
. "$here/mpi_ranked.sh"
LD_LIBRARY_PATH="$mpilib:$here/lib:/usr/local/cuda/lib64" STARPU_HOME="$here/starpu-home" TRAPEZE_HOME="$here/trapeze-home" \
  python3 "$here/tests/mpi_gpu_test.py" "$here/bin" || status=1
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
# One GPU under the sanitizer: with several, each StarPU start enables peer
# access between them, and a process that starts StarPU twice gets
# cudaErrorPeerAccessAlreadyEnabled, which StarPU clears on purpose
# (driver_cuda.c) but memcheck counts as an error. Several GPUs under
# memcheck: scripts/device/device_two_gpu_timeline.sh (one StarPU start).
export STARPU_NCUDA=${SANITIZER_NCUDA:-1}
if [ -x "$sanitizer" ]; then
  # The skewed slabs' kernels under memcheck only: they use no shared
  # memory, the one thing racecheck checks, and under it their test ran
  # past 200 s (an H200, docs/PERF.md, session 38, call 3).
  declare -A skewed_too=([memcheck]=":GpuEquality.SkewedSlabs" [racecheck]="")
  for tool in memcheck racecheck; do
    echo "== compute-sanitizer --tool $tool"
    "$here/run.sh" "$sanitizer" --tool "$tool" --error-exitcode 9 --print-limit 20 \
      "$here/bin/gpu_equality_test" --gtest_filter="GpuSanitizer.*${skewed_too[$tool]}" \
      || status=1
    # The PeerWave kernel's flags and shuffles (small grids only).
    "$here/run.sh" "$sanitizer" --tool "$tool" --error-exitcode 9 --print-limit 20 \
      "$here/bin/gpu_sweep_test" --gtest_filter='GpuSweep.PeerWave*:GpuSweep.CutTiles*' \
      || status=1
    # The wavefront PeerWave kernel: cut tiles (several launches, CPUs beside).
    "$here/run.sh" "$sanitizer" --tool "$tool" --error-exitcode 9 --print-limit 20 \
      "$here/bin/gpu_wavefront_test" --gtest_filter='GpuWavefront.CutTiles*:GpuWavefront.SummedArea*' \
      || status=1
  done
else
  echo "compute-sanitizer not found: sanitizer runs skipped"
fi
exit $status
RUN
chmod +x "$bundle/run.sh" "$bundle/run_gpu_tests.sh"
size=$(du -sm "$bundle" | cut -f1)
echo "bundle: $bundle (${size} MiB, ${#programs[@]} programs, $(ls "$bundle/lib" | wc -l) libraries)"
[ "$size" -lt 64 ] || {
  echo "make_gpu_bundle.sh: bundle is ${size} MiB, over the 64 MiB a GPU run can carry; leave out programs the run does not need with BUNDLE_SKIP=\"...\" (largest: $(cd "$bundle/bin" && ls -S | head -4 | tr '\n' ' '))" >&2
  exit 1
}
# The run carries the work tree's tracked and untracked files too.
tree=$(cd "$repo_root" && git ls-files -z --cached --others --exclude-standard | xargs -0 du -cb 2>/dev/null | tail -1 | cut -f1)
total=$(( ($(du -sb "$bundle" | cut -f1) + ${tree:-0}) >> 20 ))
[ "$total" -lt 64 ] || echo "make_gpu_bundle.sh: the bundle and the work tree are ${total} MiB together, over the 64 MiB a GPU run carries; leave programs out with BUNDLE_SKIP" >&2
