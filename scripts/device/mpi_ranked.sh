#!/usr/bin/env bash
# Sourced by the device scripts that start the bundle's apps under mpirun
# (needs $here, the bundle): `ranked APP ARGS...` runs a bundled program as
# one rank, on the machine's Open MPI library (it matches the machine's
# mpirun) and the bundle's libraries for the rest; `$mpi` is the launcher.
mpilib=$(dirname "$(ldconfig -p | awk '/libmpi.so.40 / {print $NF; exit}')" 2>/dev/null)
[ -f "$mpilib/libmpi.so.40" ] || mpilib=$(cd "$(dirname "$(command -v mpirun)")/../lib" && pwd)
ranked() {
  env LD_LIBRARY_PATH="$mpilib:${BUNDLE_LIBS:+$here/$BUNDLE_LIBS:}$here/lib:/usr/local/cuda/lib64" STARPU_HOME="$here/starpu-home" \
    TRAPEZE_HOME="$here/trapeze-home" STARPU_SILENT=1 "$here/bin/$@"
}
export -f ranked; export here mpilib
mpi="mpirun --allow-run-as-root --oversubscribe --bind-to none"
