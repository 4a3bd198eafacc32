#!/usr/bin/env bash
# Builds a sanitizer preset (CMakePresets.json) and runs the CPU tests under it.
#   scripts/run_sanitizers.sh asan-ubsan   AddressSanitizer + UndefinedBehaviorSanitizer:
#                                          every CPU test but the install and MPI tests
#   scripts/run_sanitizers.sh tsan         ThreadSanitizer: the runtime's own tests
# Extra arguments go to ctest.
# Both presets compile with -O1 -g1 (CMakePresets.json): the sanitizers'
# own advice, and on 2 cores it cuts the build by about 40% (one app: 98 s at
# -O2 -g, 55 s at -O1 -g1) while the line tables keep every report's file:line.
set -euo pipefail
preset=${1:-asan-ubsan}
shift || true
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo_root"
bash scripts/setup.sh
extra=()
[ "${CI:-}" = "true" ] && extra+=(-DTRAPEZE_WARNINGS_AS_ERRORS=ON)
cmake --preset "$preset" "${extra[@]}" >/dev/null
# hwloc's PCI plugin (libpciaccess) leaks about 1 KB per process and is
# unloaded before LeakSanitizer reports, so the leak cannot be suppressed by
# name: StarPU's topology is found without it (PCI devices only matter for
# placing GPUs, which these CPU runs do not have).
export HWLOC_COMPONENTS=-pci
# --height auto measures heights on domains of 1-32 MiB (every app's default
# size): five rounds of several heights, minutes under a sanitizer in each
# test that runs an app. The model alone decides here; the measurement's own
# test (MeasuredHeight.*) turns it back on.
export TRAPEZE_MEASURE_HEIGHTS=0
case "$preset" in
  asan-ubsan)
    cmake --build --preset "$preset" -j"$(nproc)"
    export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    cd build-asan-ubsan
    # The MPI test is left out: it has not been tried under the sanitizers yet
    # (Open MPI's own allocations and threads would need suppressions first).
    # So are app tests that take minutes here and run paths other tests
    # already take under the sanitizers (the release phase runs them all):
    # every app's profile with --height auto (HeightCache.* and MeasuredHeight.*
    # profile and measure), a run killed at random moments (Checkpoint.Refuses*
    # writes and reads checkpoints), and every app's field written, read back
    # and continued through HDF5 (100 s each here; Hdf5Fields.StepAttribute*
    # and H5dumpReads* still write and read fields, Hdf5Fields.Rejects* reads
    # short, garbage and foreign files, Checkpoint.Refuses* reads checkpoints).
    ctest --output-on-failure -j"$(nproc)" -LE 'gpu|mpi' \
      -E '^Install\.|^AppCli\.EveryAppVerifiesWithAutoHeight$|^Checkpoint\.KilledAtRandomMoments|^Hdf5Fields\.(ARunContinued|EveryAppReadsBack)' "$@"
    ;;
  tsan)
    suites=(tiling_test partition_test scheduler_policies_test task_window_test peer_dependencies_test bad_input_test
            equality_test sweep_test generated_grid_test)
    cmake --build --preset "$preset" -j"$(nproc)" --target "${suites[@]}"
    export TSAN_OPTIONS="suppressions=$repo_root/tests/tsan.supp:halt_on_error=1:second_deadlock_stack=1"
    cd build-tsan
    # Only the suites built above (ctest lists the others as *_NOT_BUILT);
    # tests labelled apps run the app binaries, which this build does not make.
    ctest --output-on-failure -j"$(nproc)" -LE 'gpu|apps' -E '_NOT_BUILT|^Layering\.' "$@"
    ;;
  *)
    echo "run_sanitizers.sh: unknown preset '$preset' (asan-ubsan or tsan)" >&2
    exit 2
    ;;
esac
