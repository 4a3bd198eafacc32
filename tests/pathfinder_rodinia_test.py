#!/usr/bin/python3
"""PathFinder against Rodinia on the same input, without Rodinia's code:
glibc's rand() is re-implemented here from its published algorithm (the
additive feedback generator of random_r, TYPE_3), Rodinia's wall is
srand(9) then rand() % 10 row by row, and Rodinia's loop (each row: weight
plus the minimum of the three cells above, clamped at the edges) gives the
costs. The app's --save-wall and text --output must equal Rodinia's printed
wall and result byte for byte; --wall reads the file back to the same result;
malformed walls are refused with one line."""
import os
import subprocess
import sys
import tempfile


def glibc_rand(seed):
    r = [0] * 34
    r[0] = seed
    for i in range(1, 31):
        # 16807 * r[i-1] % (2^31 - 1), by Schrage's method as glibc does it
        hi, lo = divmod(r[i - 1], 127773)
        word = 16807 * lo - 2836 * hi
        r[i] = word + 2147483647 if word < 0 else word
    for i in range(31, 34):
        r[i] = r[i - 31]
    state = r
    for i in range(34, 344):
        state.append((state[i - 31] + state[i - 3]) & 0xFFFFFFFF)
    while True:
        value = (state[-31] + state[-3]) & 0xFFFFFFFF
        state.append(value)
        if len(state) > 1000:
            del state[:-40]
        yield value >> 1


def rodinia(cols, rows):
    draw = glibc_rand(9)
    wall = [[next(draw) % 10 for _ in range(cols)] for _ in range(rows)]
    src = list(wall[0])
    for t in range(rows - 1):
        dst = []
        for n in range(cols):
            best = src[n]
            if n > 0:
                best = min(best, src[n - 1])
            if n < cols - 1:
                best = min(best, src[n + 1])
            dst.append(wall[t + 1][n] + best)
        src = dst
    printed_wall = "".join("".join(f"{v} " for v in row) + "\n" for row in wall)
    printed_result = "".join(f"{v} " for v in wall[0]) + "\n" + "".join(f"{v} " for v in src) + "\n"
    return printed_wall, printed_result


def run(app, *args):
    return subprocess.run([app, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def main(app):
    failures = []
    with tempfile.TemporaryDirectory() as work:
        for cols, rows, tile in [(37, 13, "8"), (1000, 100, "auto"), (5, 1, "auto")]:
            wall_path, result_path = os.path.join(work, "wall.txt"), os.path.join(work, "result.txt")
            done = run(app, "--rodinia", "--size", str(cols), "--steps", str(rows - 1), "--tile", tile, "--verify",
                       "--save-wall", wall_path, "--output", result_path)
            if done.returncode != 0:
                failures.append(f"--rodinia {cols}x{rows}: exit {done.returncode}: {done.stderr.strip()}")
                continue
            expected_wall, expected_result = rodinia(cols, rows)
            if open(wall_path).read() != expected_wall:
                failures.append(f"{cols}x{rows}: --save-wall differs from Rodinia's wall")
            if open(result_path).read() != expected_result:
                failures.append(f"{cols}x{rows}: --output differs from Rodinia's result")
            again = os.path.join(work, "again.txt")
            done = run(app, "--wall", wall_path, "--output", again, "--verify")
            if done.returncode != 0 or open(again).read() != expected_result:
                failures.append(f"{cols}x{rows}: --wall read back gave exit {done.returncode} {done.stderr.strip()}")
        bad_walls = {
            "ragged": ("1 2 3 \n4 5 \n", "has 2 values, the first row 3"),
            "garbage": ("1 2 x\x01 \n", "expected whole numbers >= 0, got 'x\\x01'"),
            "negative": ("1 -2 3 \n", "expected whole numbers >= 0"),
            "empty": ("", "holds no values"),
            "overflow": ("2000000000 1 \n1 1 \n", "could pass 32-bit path costs"),
        }
        for name, (content, message) in bad_walls.items():
            path = os.path.join(work, name + ".txt")
            with open(path, "w") as f:
                f.write(content)
            out = os.path.join(work, name + "-out.txt")
            done = run(app, "--wall", path, "--output", out)
            lines = done.stderr.strip().splitlines()
            if done.returncode == 0 or len(lines) != 1 or message not in lines[0] or os.path.exists(out):
                failures.append(f"bad wall '{name}': exit {done.returncode}, stderr {done.stderr.strip()!r}")
        for args, message in [(["--steps", "5"], "differs from --wall's 2 rows"),
                              (["--size", "7"], "differs from --wall's 3 columns"),
                              (["--rodinia"], "--wall excludes --rodinia")]:
            path = os.path.join(work, "small.txt")
            with open(path, "w") as f:
                f.write("1 2 3 \n4 5 6 \n")
            done = run(app, "--wall", path, *args)
            if done.returncode != 2 or message not in done.stderr:
                failures.append(f"--wall with {args}: exit {done.returncode}, stderr {done.stderr.strip()!r}")
    for f in failures:
        print("FAILED:", f)
    print("pathfinder against Rodinia:", "passed" if not failures else f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
