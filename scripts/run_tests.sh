#!/usr/bin/env bash
# Sets up (if needed), builds, and runs the whole test suite under CTest.
set -euo pipefail
repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$repo_root/scripts/build.sh"
cd "$repo_root/build"
ctest --output-on-failure -j"$(nproc)" "$@"
