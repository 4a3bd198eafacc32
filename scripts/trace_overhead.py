#!/usr/bin/python3
"""What recording a task trace costs: each case runs untraced and with
--trace DIR, interleaved (A B A B ...) for --rounds rounds, and the table
gives median seconds and the traced run's throughput relative to the
untraced one (with the spread over rounds). With --nofxt-lib DIR, a third
variant runs the same binary on a StarPU built without FxT (its libstarpu in
DIR), which measures what merely compiling FxT into StarPU costs.

    scripts/trace_overhead.py build/apps/jacobi2d --rounds 7 [--nofxt-lib /tmp/starpu-nofxt/lib]

"run s" is the app's own timing of the steps (--json "seconds"); "process s"
is the whole process, which includes writing the trace at exit.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

DEFAULT_CASES = [
    "--size 1024 --tile 64x64 --height 1 --steps 16",
    "--size 2048 --tile 256x256 --height 1 --steps 32",
    "--size 4096 --tile 512x512 --height 8 --steps 32",
]


def run(app, args, trace_dir=None, lib_dir=None):
    command = [app] + args.split() + ["--json"]
    env = dict(os.environ)
    if trace_dir:
        command += ["--trace", trace_dir]
    if lib_dir:
        env["LD_LIBRARY_PATH"] = lib_dir + (":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else "")
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    process = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {done.returncode}: {done.stderr.strip()[-300:]}")
    report = json.loads(done.stdout.strip().splitlines()[-1])
    return report["seconds"], process, report["tiles"]


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("app")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--case", action="append", help="app arguments of one case (repeatable)")
    parser.add_argument("--nofxt-lib", help="folder of a libstarpu-1.4.so built without FxT")
    args = parser.parse_args(argv[1:])
    cases = args.case or DEFAULT_CASES
    variants = ["untraced", "traced"] + (["no FxT"] if args.nofxt_lib else [])
    scratch = tempfile.mkdtemp(prefix="trace-overhead-")
    results = {(c, v): [] for c in cases for v in variants}
    try:
        for round_index in range(args.rounds):
            for case in cases:
                for variant in variants:
                    trace_dir = os.path.join(scratch, "t") if variant == "traced" else None
                    if trace_dir:
                        shutil.rmtree(trace_dir, ignore_errors=True)
                    lib_dir = args.nofxt_lib if variant == "no FxT" else None
                    results[(case, variant)].append(run(args.app, case, trace_dir, lib_dir))
            print(f"\rround {round_index + 1} of {args.rounds}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    print(f"{'case':<48} {'variant':<9} {'run s':>8} {'process s':>9} {'throughput vs untraced (median, min-max)':>42}")
    for case in cases:
        base = [r[0] for r in results[(case, "untraced")]]
        for variant in variants:
            runs = results[(case, variant)]
            seconds = [r[0] for r in runs]
            ratios = [b / s for b, s in zip(base, seconds)]  # per round: interleaved neighbours
            print(f"{case:<48} {variant:<9} {statistics.median(seconds):>8.4f} "
                  f"{statistics.median(r[1] for r in runs):>9.3f} "
                  f"{statistics.median(ratios):>24.3f} ({min(ratios):.3f}-{max(ratios):.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
