#!/usr/bin/env python3
"""Out-of-core on the CPU through the apps (issue 11): every stencil app (himeno and cip included) run
with --disk DIR and STARPU_LIMIT_CPU_MEM well under its domain writes the
same --output, byte for byte, as the in-memory run, passes --verify, reports
in its --json line the bytes it wrote to the disk node (at least the domain
less the memory allowed), and leaves DIR as it found it. Bad disk options
get one line naming the value and a non-zero exit, and no output file.

Usage: out_of_core_apps_test.py APPS_DIR
"""
import filecmp
import json
import os
import subprocess
import sys
import tempfile

failures = []
LIMIT_MIB = 2
# (app, arguments, bytes of the domain's updated fields): each at least twice the limit.
CASES = [
    ("jacobi2d", "--size 1501x1203 --steps 9 --tile 200x160 --height 3", 1501 * 1203 * 4),
    ("jacobi2d", "--size 901x701 --steps 6 --tile 128x128 --height 2 --type double --boundary periodic", 901 * 701 * 8),
    ("jacobi3d", "--size 131x111x97 --steps 5 --tile 64x56x24 --height 2", 131 * 111 * 97 * 4),
    ("hotspot", "--size 1203x1001 --steps 8 --tile 160x160 --height 4", 1203 * 1001 * 4),
    ("life", "--size 3001x2003 --steps 8 --tile 400x300 --height 4 --boundary periodic", 3001 * 2003),
    ("pathfinder", "--size 2000001 --steps 12 --tile 8000 --height 4", 2000001 * 4),
    ("himeno", "--size 97x81x71 --steps 4 --tile 20x20x16 --height 2", 97 * 81 * 71 * 4 * 2),
    ("cip", "--size 701x523 --steps 6 --tile 128x112 --height 3", 701 * 523 * 4 * 3),
]
ENVIRONMENT = dict(os.environ, STARPU_NCPU="2", STARPU_NCUDA="0", STARPU_SILENT="1", STARPU_WORKERS_NOBIND="1")


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what, flush=True)


def run(app, arguments, output, disk=None, extra_environment=None):
    command = [os.path.join(apps_dir, app), *arguments.split(), "--verify", "--json", "--output", output]
    environment = dict(ENVIRONMENT, **(extra_environment or {}))
    if disk:
        command += ["--disk", disk]
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=240,
                          env=environment)
    what = f"{app} {arguments}{' --disk' if disk else ''}"
    check(done.returncode == 0, f"{what}: exit {done.returncode}: {done.stderr.strip()[-2000:]}")
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    report = json.loads(lines[-1]) if lines else {}
    check(report.get("verified") is True, f"{what}: not verified: {report}")
    return report


def bad_disk_options(tmp):
    """A missing directory, a file in its place, and tiles that cannot fit."""
    not_a_directory = os.path.join(tmp, "plain-file")
    with open(not_a_directory, "w") as f:
        f.write("x")
    for arguments, needle, environment in [
        ("--size 64 --disk /nonexistent/trapeze", "/nonexistent/trapeze", {}),
        (f"--size 64 --disk {not_a_directory}", not_a_directory, {}),
        (f"--size 2048 --tile 2048 --height 1 --disk {tmp}", "STARPU_LIMIT_CPU_MEM", {"STARPU_LIMIT_CPU_MEM": "4"}),
    ]:
        output = os.path.join(tmp, "refused.txt")
        command = [os.path.join(apps_dir, "jacobi2d"), *arguments.split(), "--output", output]
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120,
                              env=dict(ENVIRONMENT, **environment))
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        check(done.returncode != 0 and len(lines) == 1 and needle in lines[0],
              f"jacobi2d {arguments}: expected one line naming {needle!r} and a non-zero exit, "
              f"got {done.returncode}: {done.stderr[-1500:]!r}")
        check(not os.path.exists(output), f"jacobi2d {arguments}: refused, yet wrote {output}")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        disk = os.path.join(tmp, "disk")
        os.mkdir(disk)
        for index, (app, arguments, domain_bytes) in enumerate(CASES):
            check(domain_bytes >= 2 * (LIMIT_MIB << 20), f"{app}: the case is not twice the memory limit")
            in_memory = os.path.join(tmp, f"{index}-memory.txt")
            streamed = os.path.join(tmp, f"{index}-disk.txt")
            run(app, arguments, in_memory)
            report = run(app, arguments, streamed, disk, {"STARPU_LIMIT_CPU_MEM": str(LIMIT_MIB)})
            same = os.path.exists(in_memory) and os.path.exists(streamed) and filecmp.cmp(in_memory, streamed, shallow=False)
            check(same, f"{app} {arguments}: --disk output differs from the in-memory run's")
            written = report.get("disk_bytes", 0)
            check(written >= domain_bytes - (LIMIT_MIB << 20),
                  f"{app} {arguments}: {written} bytes written to the disk node, expected at least "
                  f"{domain_bytes - (LIMIT_MIB << 20)}")
            check(not os.listdir(disk), f"{app} {arguments}: the disk node left files behind: {os.listdir(disk)}")
            print(f"{app} {arguments}: domain {domain_bytes / 2**20:.1f} MiB, limit {LIMIT_MIB} MiB, "
                  f"{written / 2**20:.1f} MiB to disk, read {report.get('disk_read_bytes', 0) / 2**20:.1f} MiB, "
                  f"{'equal to the in-memory run' if same else 'DIFFERENT'}", flush=True)
        bad_disk_options(tmp)
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    apps_dir = os.path.abspath(sys.argv[1])
    sys.exit(main())
