#!/usr/bin/env bash
# Rank 0's peak resident memory (the --json line's peak_memory_bytes) for
# jacobi2d 8192x8192 float (256 MiB) on 1, 2 and 4 ranks, with the grid held
# on every rank (--checksum) and generated in the tiles (--no-grid), beside a
# 64x64 run of the same ranks (what StarPU, MPI and the program cost alone).
set -euo pipefail
A=${A:-build/apps}
export STARPU_SILENT=1 STARPU_NCPU=1 STARPU_WORKERS_NOBIND=1 OMPI_MCA_btl=self,vader
MP="mpirun --allow-run-as-root --oversubscribe --bind-to none"
pk() { python3 -c "import json,sys; d=json.loads([l for l in sys.stdin.read().splitlines() if l.startswith('{')][-1]); print(round(d['peak_memory_bytes']/2**20,1), d.get('checksum'))"; }
for mode in "--no-grid" "--checksum"; do
  for np in 1 2 4; do
    base=$($MP -np $np $A/jacobi2d --size 64 --steps 2 --height 1 $mode --json | pk)
    big=$($MP -np $np $A/jacobi2d --size 8192 --steps 2 --height 1 --tile 8192x1024 $mode --json | pk)
    echo "mode=$mode ranks=$np tiny: $base  8192^2: $big"
  done
done
