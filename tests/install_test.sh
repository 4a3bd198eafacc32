#!/usr/bin/env bash
# The installed package works for an outside project: install the build into a
# temporary prefix, configure and build tests/outside_project against it,
# run it (it checks itself against the sequential reference).
set -euo pipefail
build=$1
source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/outside_project
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$source_dir" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/build" -j2 >/dev/null
"$work/build/user_jacobi"
