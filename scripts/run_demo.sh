#!/usr/bin/env bash
# The default demo: Rodinia HotSpot on the CPU through Trapeze, checked against
# the sequential reference, printing its throughput. Extra arguments go to hotspot.
set -euo pipefail
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$repo_root/scripts/build.sh" >/dev/null
export STARPU_SILENT=${STARPU_SILENT:-1}
export STARPU_HOME=${STARPU_HOME:-$repo_root/build/starpu-home}
exec "$repo_root/build/apps/hotspot" --size 2048x2048 --steps 200 --verify --png "$repo_root/build/hotspot.png" "$@"
