#!/usr/bin/env bash
# Call 6 (run from inside the GPU bundle beside scripts/device/mpi_ranked.sh): the script as run, less an echo of each run's last stderr lines.
here=$PWD; export BUNDLE_LIBS=lib-blocking; source ./mpi_ranked.sh
ompi_info --param btl vader --level 9 2>/dev/null | grep -iE "single_copy|cma" | head -5
cat /proc/sys/kernel/yama/ptrace_scope 2>/dev/null
STARPU_NCUDA=1 ./run.sh jacobi3d --devices gpu --steps 16 --json > /dev/null 2>&1
for r in 1 2; do for m in default cma none; do
  if [ $m = default ]; then e=(); else e=(OMPI_MCA_btl_vader_single_copy_mechanism=$m); fi
  b=$(env "${e[@]}" timeout 100 $mpi -np 2 bash -c 'ranked "$@"' ranked jacobi3d --devices gpu --size 1024x1024x1024 --steps 512 --checksum --json 2>/tmp/e.txt | tail -1)
  echo "$r $m $(echo "$b" | python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); print(round(d["seconds"],4), d["checksum"])' 2>&1 | tail -1)"
done; done
