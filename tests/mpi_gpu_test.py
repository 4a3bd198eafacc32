#!/usr/bin/env python3
"""The stencil apps under mpirun on GPUs (label gpu): ranks whose tiles run
on GPUs give bit for bit one GPU's result, with halo pieces through the
node's mailboxes in GPU memory (CUDA IPC, trapeze/node_exchange.hpp) and
through MPI; --verify checks each run against the sequential reference
(within the float tolerance of the GPU suite). On a machine with one GPU
the ranks share it, and the mailboxes are still another process's memory
opened through CUDA IPC. Through the mailboxes StarPU-MPI carries zero-byte
messages only. Without a GPU the test says so and exits 77 (CTest: skipped).

Usage: mpi_gpu_test.py APPS_DIR
"""
import os
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the sources when importing the CPU test's helpers
import mpi_apps_test as mpi  # noqa: E402

SKIPPED = 77

# Odd sizes; several tiles a rank, so pieces also pass between a rank's own
# tiles. Even widths whose x ghost zone widens by a cell (rows of a multiple
# of 4 cells, trapeze/stencil_shape.hpp) for the 16-byte single step.
CASES = [
    ("jacobi2d", "--size 1029x771 --steps 13 --tile 1029x100 --height 3"),
    ("jacobi2d", "--size 1030x771 --steps 13 --tile 1030x100 --height 2"),
    ("hotspot", "--size 402x297 --steps 11 --tile 402x64 --height 4"),
    ("jacobi2d", "--size 517x389 --steps 10 --tile 517x64 --height 2 --boundary periodic --type double"),
    ("jacobi3d", "--size 67x61x59 --steps 9 --tile 67x61x16 --height 3"),
    ("hotspot", "--size 403x297 --steps 11 --tile 403x64 --height 4"),
    ("life", "--size 511x389 --steps 12 --tile 511x80 --height 4 --boundary periodic"),
    ("cip", "--size 403x301 --steps 7 --tile 403x64 --height 3"),
]
GPU_ENVIRONMENT = dict(mpi.ENVIRONMENT, STARPU_NCUDA="1")


def gpu_present():
    return os.path.exists("/dev/nvidia0") or (shutil.which("nvidia-smi") is not None and subprocess.run(
        ["nvidia-smi", "-L"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0)


def no_halo_bytes_through_mpi():
    """jacobi2d on 2 ranks with the pieces in GPU mailboxes: StarPU-MPI's
    statistics count no byte sent by either rank."""
    arguments = "--size 1029x771 --steps 12 --tile 1029x100 --height 3 --devices gpu --checksum --json".split()
    done, sent, _ = mpi.run_counting_mpi_bytes(2, "jacobi2d", arguments, dict(GPU_ENVIRONMENT, TRAPEZE_NODE_EXCHANGE="device"))
    mpi.check(done.returncode == 0 and sent == {0: 0, 1: 0},
              f"pieces through GPU mailboxes: exit {done.returncode}, bytes sent per rank through MPI {sent} "
              f"(expected none): {done.stderr.strip()[-1500:]}")
    print(f"pieces through GPU mailboxes: bytes sent per rank through MPI: {sent}", flush=True)


def main():
    if not gpu_present():
        print("SKIPPED: no GPU on this machine (the GPU machine runs this test)")
        return SKIPPED
    if shutil.which("mpirun") is None:
        print("mpirun not found")
        return 1
    for app, arguments in CASES:
        arguments += " --devices gpu"
        single = mpi.run(1, app, arguments, None, ["--checksum"], GPU_ENVIRONMENT)
        for ranks, exchange in ((2, "device"), (3, "device"), (2, "mpi")):
            environment = dict(GPU_ENVIRONMENT, TRAPEZE_NODE_EXCHANGE=exchange)
            spread = mpi.run(ranks, app, arguments, None, ["--checksum"], environment)
            what = f"{ranks} ranks on GPUs, pieces through {exchange}: {app} {arguments}"
            mpi.check(single.get("checksum") is not None and spread.get("checksum") == single.get("checksum"),
                      f"{what}: checksum {spread.get('checksum')} against 1 rank's {single.get('checksum')}")
            mpi.check(spread.get("node_exchange") == exchange,
                      f"{what}: node_exchange {spread.get('node_exchange')} in the JSON line")
            print(f"{what}: verified, checksum {'equal to' if spread.get('checksum') == single.get('checksum') else 'DIFFERS from'} "
                  f"1 rank's", flush=True)
    no_halo_bytes_through_mpi()
    print(f"{len(mpi.failures)} failure(s)")
    return 1 if mpi.failures else 0


if __name__ == "__main__":
    mpi.apps_dir = os.path.abspath(sys.argv[1])
    sys.exit(main())
