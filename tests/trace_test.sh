#!/usr/bin/env bash
# --trace DIR records a StarPU FxT trace of an app run, and scripts/timeline.py
# turns it into a PNG timeline (one row per worker, tasks by kind), ViTE's
# Paje file and a table whose task counts match the run's plan. A trace
# directory that cannot be made is refused with one line and exit code 2.
set -euo pipefail
build=$1
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { printf 'trace test FAILED: %s\n' "$*" >&2; exit 1; }

# 2x2 tiles, 6 steps at h = 3: 2 stages of 4 stage tasks.
"$build/apps/jacobi2d" --size 64 --tile 32x32 --height 3 --steps 6 --verify --trace "$work/trace" >"$work/run.txt" 2>&1 \
  || fail "traced run failed: $(cat "$work/run.txt")"
grep -q verified "$work/run.txt" || fail "traced run did not verify: $(cat "$work/run.txt")"
[ -s "$work/trace/prof_file_0" ] || fail "no trace file in $work/trace: $(ls "$work/trace")"

/usr/bin/python3 "$root/scripts/timeline.py" "$work/trace" --label "h = 3" -o "$work/timeline.png" >"$work/table.txt" 2>&1 \
  || fail "timeline.py: $(cat "$work/table.txt")"
cat "$work/table.txt"
grep -Eq '^h = 3 .* stage [0-9.]+ \(8\)' "$work/table.txt" || fail "expected 8 stage tasks in: $(cat "$work/table.txt")"
[ -s "$work/trace/paje.trace" ] || fail "no Paje trace for ViTE"
/usr/bin/python3 - "$work/timeline.png" <<'PY' || fail "timeline.png is not a PNG image"
import sys
import matplotlib.image
image = matplotlib.image.imread(sys.argv[1])
assert image.shape[0] > 100 and image.shape[1] > 400, image.shape
PY

# Bad input: a trace directory under a regular file.
touch "$work/file"
set +e
"$build/apps/jacobi2d" --size 64 --steps 2 --trace "$work/file/trace" >"$work/bad.txt" 2>&1
status=$?
set -e
[ $status = 2 ] || fail "--trace under a file exited $status (2 expected): $(cat "$work/bad.txt")"
[ "$(wc -l <"$work/bad.txt")" = 1 ] && grep -q "cannot make the trace directory" "$work/bad.txt" \
  || fail "--trace under a file: $(cat "$work/bad.txt")"

# A directory without a trace: timeline.py says so, exit 1.
mkdir "$work/empty"
if /usr/bin/python3 "$root/scripts/timeline.py" "$work/empty" >"$work/none.txt" 2>&1; then fail "timeline.py drew an empty directory"; fi
grep -q "holds no prof_file" "$work/none.txt" || fail "empty directory: $(cat "$work/none.txt")"
echo "trace test: passed"
