#!/usr/bin/env bash
# The package as a new user meets it (issue 13): install the build into a
# temporary prefix, then
#   - only include/trapeze/ is installed, with a pkg-config file;
#   - the installed apps run with no environment variable at all;
#   - an outside project builds with find_package(Trapeze) (StarPU found where
#     Trapeze was built, PKG_CONFIG_PATH unset), equals the sequential
#     reference, and the package leaves a plain target's flags alone;
#   - the build tree works as a package (-DTrapeze_DIR=<build>);
#   - the same program builds with pkg-config alone;
#   - find_package(Trapeze QUIET) without StarPU goes on with Trapeze_FOUND
#     false, and REQUIRED stops with one clear message.
set -euo pipefail
build=$(cd "$1" && pwd)
tests_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source_dir=$tests_dir/outside_project
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset PKG_CONFIG_PATH LD_LIBRARY_PATH
prefix=$work/prefix
step() { printf 'install test: %s\n' "$*"; }
fail() { printf 'install test FAILED: %s\n' "$*" >&2; exit 1; }

step "cmake --install into a temporary prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
[ "$(ls "$prefix/include")" = "trapeze" ] || fail "include/ holds $(ls "$prefix/include" | tr '\n' ' ')(only trapeze/ expected)"
[ -f "$prefix/lib/pkgconfig/trapeze.pc" ] || fail "no lib/pkgconfig/trapeze.pc"

step "the installed headers compile from the prefix alone"
for header in "$prefix"/include/trapeze/*.hpp; do
  echo "#include <trapeze/$(basename "$header")>"
done >"$work/all_headers.cpp"
# shellcheck disable=SC2046
g++ -std=c++20 -fsyntax-only $(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags trapeze) "$work/all_headers.cpp" \
  || fail "the installed headers do not compile by themselves"

if [ -x "$prefix/bin/jacobi2d" ]; then
  step "installed jacobi2d runs with an empty environment"
  out=$(cd "$work" && env -i "$prefix/bin/jacobi2d" --size 64 --steps 4 --tile 32x32 --verify 2>&1) \
    || fail "env -i $prefix/bin/jacobi2d exited $?: $out"
  grep -q "verified" <<<"$out" || fail "installed jacobi2d did not verify: $out"
fi

step "outside project with find_package(Trapeze) from the prefix"
cmake -S "$source_dir" -B "$work/user" -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
cmake --build "$work/user" -j2 >/dev/null
"$work/user/user_jacobi"
own_flags=$(grep -E '"command": .*user_jacobi_own_flags\.dir' "$work/user/compile_commands.json") \
  || fail "no compile line for user_jacobi_own_flags in compile_commands.json"
if grep -qE -- '-ffp-contract|-march' <<<"$own_flags"; then
  fail "the package forces flags on a consumer's target: $own_flags"
fi

step "outside project with the build tree as its package"
cmake -S "$source_dir" -B "$work/user-build-tree" -DCMAKE_BUILD_TYPE=Release -DTrapeze_DIR="$build" >/dev/null
cmake --build "$work/user-build-tree" -j2 --target user_jacobi >/dev/null
"$work/user-build-tree/user_jacobi"

step "the same program with pkg-config alone"
pc() { PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config "$@" trapeze; }
# shellcheck disable=SC2046
g++ $(pc --variable=kernel_cflags) $(pc --variable=exact_fp_cflags) $(pc --cflags) \
  "$source_dir/user_jacobi.cpp" -o "$work/user_jacobi_pc" $(pc --libs)
"$work/user_jacobi_pc"

step "find_package(Trapeze QUIET) where StarPU is not to be found"
mkdir -p "$work/no-starpu"
log=$work/quiet.log
cmake -S "$source_dir/quiet" -B "$work/quiet" -DCMAKE_PREFIX_PATH="$prefix" \
  -DTrapeze_STARPU_PC_DIR="$work/no-starpu" >"$log" 2>&1 || fail "QUIET stopped the configuration: $(cat "$log")"
grep -q "optional Trapeze: not found (Trapeze needs StarPU 1.4" "$log" || fail "QUIET: $(cat "$log")"
if cmake -S "$source_dir/quiet" -B "$work/required" -DCMAKE_PREFIX_PATH="$prefix" -DREQUIRE_TRAPEZE=ON \
     -DTrapeze_STARPU_PC_DIR="$work/no-starpu" >"$log" 2>&1; then
  fail "REQUIRED configured without StarPU"
fi
grep -q "Trapeze needs StarPU 1.4 with StarPU-MPI: no starpumpi-1.4.pc" "$log" || fail "REQUIRED without StarPU: $(cat "$log")"
step "passed"
