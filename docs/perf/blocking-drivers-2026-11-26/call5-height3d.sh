#!/usr/bin/env bash
# Call 5 (run from inside the GPU bundle beside scripts/device/mpi_ranked.sh, as ./height3d.sh): the script as run.
# jacobi3d 1024^3 512 steps: 1 GPU and 2 MPI ranks at task heights auto, 6, 12 (blocking StarPU), 2 rounds interleaved.
here=$PWD; export BUNDLE_LIBS=lib-blocking; source ./mpi_ranked.sh
STARPU_NCUDA=1 ./run.sh jacobi3d --devices gpu --steps 16 --json > /dev/null 2>&1
for r in 1 2; do for h in auto 6 12; do
  a=$(STARPU_NCUDA=1 timeout 120 ./run.sh jacobi3d --devices gpu --size 1024x1024x1024 --steps 512 --height $h --checksum --json 2>/dev/null | tail -1)
  b=$(timeout 120 $mpi -np 2 bash -c 'ranked "$@"' ranked jacobi3d --devices gpu --size 1024x1024x1024 --steps 512 --height $h --checksum --json 2>/dev/null | tail -1)
  for v in "1gpu:$a" "2rank:$b"; do echo "$r $h ${v%%:*} $(echo "${v#*:}" | python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); print(d["height"], d["kernel_height"], round(d["seconds"],4), d["checksum"])' 2>&1 | tail -1)"; done
done; done
