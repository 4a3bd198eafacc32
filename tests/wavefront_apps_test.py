#!/usr/bin/env python3
"""The wavefront apps from the command line: FASTA input, scores known by
hand, --json and --verify, and bad input refused with one line and exit 2.

Usage: wavefront_apps_test.py APPS_DIR
"""
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time

failures = []


def run(app, *args):
    return subprocess.run([os.path.join(apps_dir, app), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=120)


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what)


def json_line(app, *args):
    done = run(app, "--json", *args)
    check(done.returncode == 0, f"{app} {' '.join(args)} exit {done.returncode}: {done.stderr.strip()}")
    return json.loads(done.stdout.strip().splitlines()[-1]) if done.returncode == 0 else {}


def refused(app, needle, *args):
    done = run(app, *args)
    lines = done.stderr.strip().splitlines()
    check(done.returncode == 2 and len(lines) == 1 and needle in done.stderr,
          f"{app} {' '.join(args)}: expected exit 2 and one line naming {needle!r}, got {done.returncode}: {done.stderr!r}")


def killed_and_restarted(tmp):
    """smith-waterman killed with SIGKILL at random moments after its first
    checkpoint, restarted from its last one: the score and the last cell
    (h, e, f) equal the uninterrupted run's."""
    app = os.path.join(apps_dir, "smith-waterman")
    args = ["--size", "30000x20000", "--tile", "1024", "--json"]
    whole = json_line("smith-waterman", *args)
    rng = random.Random(int(os.environ.get("TRAPEZE_TEST_SEED", "0")) or None)
    for attempt in range(3):
        checkpoint = os.path.join(tmp, f"sw-{attempt}.ckpt")
        run = subprocess.Popen([app, *args, "--checkpoint", checkpoint, "--checkpoint-every", "2"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 60
        while not os.path.exists(checkpoint) and run.poll() is None and time.time() < deadline:
            time.sleep(0.005)
        time.sleep(rng.uniform(0.0, 0.3))
        run.send_signal(signal.SIGKILL)
        run.wait()
        check(os.path.exists(checkpoint), f"attempt {attempt}: no checkpoint written")
        if not os.path.exists(checkpoint):
            continue
        resumed = json_line("smith-waterman", *args, "--restart", checkpoint)
        check(resumed.get("score") == whole.get("score") and resumed.get("last_cell") == whole.get("last_cell"),
              f"attempt {attempt}: restarted from row {resumed.get('first_row')}: {resumed.get('score')} "
              f"{resumed.get('last_cell')} against {whole.get('score')} {whole.get('last_cell')}")
        print(f"killed and restarted from row {resumed.get('first_row')}: score {resumed.get('score')}")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        def fasta(name, text):
            path = os.path.join(tmp, name)
            with open(path, "w") as f:
                f.write(text)
            return path

        same = fasta("same.fa", ">q\nACGT\n")
        # Scores by hand (match 2, mismatch -3, open 5, extend 2): ACGT against itself 4 matches = 8;
        # no common residue = 0; GGGAAAACCC against GGGCCC: best is GGG or CCC (6), a gap of 4 costs 5+3*2=11.
        check(json_line("smith-waterman", "--query", same, "--target", same, "--verify").get("score") == 8, "ACGT/ACGT = 8")
        check(json_line("smith-waterman", "--query", fasta("a.fa", ">a\nAAAA\n"),
                        "--target", fasta("t.fa", ">t\nTTTT\n")).get("score") == 0, "AAAA/TTTT = 0")
        check(json_line("smith-waterman", "--query", fasta("g.fa", ">g\nGGGAAAACCC\n"),
                        "--target", fasta("h.fa", ">h\nGGGCCC\n")).get("score") == 6, "gap of 4 not worth it")
        # With a cheap linear gap (open = extend = 1) the gap pays: 12 - (1 + 3*1) = 8... O + (L-1)E = 4.
        check(json_line("smith-waterman", "--query", os.path.join(tmp, "g.fa"), "--target", os.path.join(tmp, "h.fa"),
                        "--gap-open", "1", "--gap-extend", "1").get("score") == 8, "gap of 4 at cost 4")
        # Line breaks, CRLF, lowercase and a second record do not change the sequence.
        multi = fasta("multi.fa", ">q long header\r\nacg\r\n\r\nT\r\n>second\nGGGG\n")
        check(json_line("smith-waterman", "--query", multi, "--target", same).get("score") == 8, "multi-line FASTA")
        report = json_line("smith-waterman", "--verify", "--size", "700x300", "--tile", "64x100", "--alphabet", "protein")
        check(report.get("verified") is True and report.get("rows") == 700 and report.get("columns") == 300,
              f"random protein pair verified: {report}")
        check(json_line("smith-waterman", "--size", "0x9").get("score") == 0, "empty query scores 0")
        check(json_line("sat", "--verify", "--size", "301x77", "--tile", "32x16").get("verified") is True, "sat verified")
        check(json_line("sat", "--size", "10x10", "--max-pixel", "0").get("total") == 0, "sat of a black image")
        check(json_line("dtw", "--verify", "--size", "999x501", "--tile", "100x64").get("verified") is True, "dtw verified")
        report = json_line("inthist", "--verify", "--size", "123x77", "--tile", "40x33", "--bins", "32")
        check(report.get("verified") is True and sum(report.get("histogram", [])) == 123 * 77,
              f"inthist verified, its histogram counts every pixel: {report.get('histogram')}")
        # The banded layout on CPU workers (conversion tasks around every tile): the same tables.
        report = json_line("sat", "--verify", "--size", "301x77", "--tile", "32x16", "--layout", "banded")
        check(report.get("verified") is True and report.get("layout") == "banded", f"sat banded verified: {report}")
        check(json_line("sat", "--size", "40x40").get("layout") == "row", "sat on CPUs: row-major by default")
        report = json_line("inthist", "--verify", "--size", "123x77", "--tile", "40x33", "--bins", "8", "--layout", "banded")
        check(report.get("verified") is True and report.get("layout") == "banded", f"inthist banded verified: {report}")
        for app in ("smith-waterman", "sat", "dtw", "inthist"):
            check(run(app, "--help").returncode == 0, f"{app} --help")

        # Tables as HDF5, checked by an independent reader and numpy's cumulative sums.
        import h5py
        import numpy
        sat_file, hist_file = os.path.join(tmp, "sat.h5"), os.path.join(tmp, "hist.h5")
        check(run("sat", "--size", "37x53", "--tile", "8x16", "--output", sat_file).returncode == 0, "sat --output")
        check(run("inthist", "--size", "21x13", "--bins", "8", "--tile", "5x4", "--output", hist_file).returncode == 0,
              "inthist --output")
        with h5py.File(sat_file) as f:
            image, table = f["image"][...], f["sat"][...]
            check(image.shape == (37, 53) and table.dtype == numpy.uint64 and
                  (numpy.cumsum(numpy.cumsum(image.astype(numpy.uint64), 0), 1) == table).all(),
                  "sat's HDF5 table equals numpy's cumulative sums of its image")
        with h5py.File(hist_file) as f:
            hist = f["inthist"][...]
            check(hist.shape == (21, 13, 8) and int(hist[-1, -1].sum()) == 21 * 13 and (numpy.diff(hist, axis=0) >= 0).all(),
                  "inthist's HDF5 table counts every pixel once")
        refused("sat", "must end in .h5 or .hdf5", "--output", os.path.join(tmp, "sat.txt"))

        # In-place sweeps: bit-exact against the sequential loop, the field as HDF5 and PNG.
        for app in ("sor", "heat2d"):
            check(json_line(app, "--verify").get("verified") is True, f"{app} default problem verified")
            check(run(app, "--help").returncode == 0, f"{app} --help")
        report = json_line("sor", "--verify", "--size", "101x77", "--tile", "16x9", "--sweeps", "400")
        check(report.get("verified") is True and report.get("max_error", 1) < 1e-6 and report.get("tiles") == 7 * 9,
              f"sor 101x77 verified and converged to x^2 - y^2: {report}")
        report = json_line("heat2d", "--verify", "--size", "63x130", "--tile", "10x32", "--sweeps", "7", "--hot", "50")
        check(report.get("verified") is True and 0 < report.get("mean", 0) < 50, f"heat2d verified, its mean between the edges: {report}")
        sor_file, heat_png = os.path.join(tmp, "sor.h5"), os.path.join(tmp, "heat.png")
        check(run("sor", "--size", "31x17", "--tile", "8", "--sweeps", "300", "--output", sor_file).returncode == 0,
              "sor --output")
        with h5py.File(sor_file) as f:
            u = f["u"][...]
            h = 1.0 / 32
            y, x = numpy.mgrid[1:32, 1:18] * h
            check(u.shape == (31, 17) and numpy.abs(u - (x * x - y * y)).max() < 1e-9,
                  "sor's HDF5 field is x^2 - y^2 after 300 sweeps")
        check(run("heat2d", "--size", "40x60", "--png", heat_png).returncode == 0 and os.path.getsize(heat_png) > 100,
              "heat2d --png")
        refused("sor", "--omega must be 'optimal' or a number in (0, 2), got '2'", "--omega", "2")
        refused("sor", "--omega must be", "--omega", "fast")
        refused("heat2d", "--hot must be a finite temperature", "--hot", "inf")
        refused("heat2d", "sweeps", "--sweeps", "-3")
        refused("heat2d", "tile", "--tile", "4x0")
        refused("sor", "must end in .h5 or .hdf5", "--output", os.path.join(tmp, "sor.txt"))
        refused("sor", "more than this machine", "--size", "2000000x2000000")
        refused("sor", "--width must be auto or a whole number from 32 to 65536, got '16'", "--width", "16")
        refused("heat2d", "--width must be auto or a whole number from 32 to 65536, got 'wide'", "--width", "wide")

        killed_and_restarted(tmp)
        ckpt = os.path.join(tmp, "sw-0.ckpt")
        with open(ckpt, "rb") as f:
            data = f.read()
        truncated = fasta("truncated.ckpt", "")
        with open(truncated, "wb") as f:
            f.write(data[: len(data) // 2])
        refused("smith-waterman", "is truncated", "--size", "30000x20000", "--restart", truncated)
        refused("smith-waterman", "is not a Trapeze wavefront checkpoint", "--restart", same)
        refused("smith-waterman", "was written for other inputs", "--size", "30000x20001", "--restart", ckpt)
        refused("dtw", "holds smith-waterman's state, not dtw's", "--restart", ckpt)
        refused("sat", "--checkpoint and --restart are for score-only apps", "--checkpoint", ckpt, "--checkpoint-every", "1")
        refused("smith-waterman", "go together", "--checkpoint", ckpt)
        garbage = fasta("garbage.fa", ">g\nAC\x01\xffGT\n")
        refused("smith-waterman", "\\x01", "--query", garbage, "--target", same)

        refused("smith-waterman", "no-such.fa", "--query", os.path.join(tmp, "no-such.fa"), "--target", same)
        refused("smith-waterman", "expected a '>' header line", "--query", fasta("bad.fa", "ACGT\n"), "--target", same)
        refused("smith-waterman", "'1' is not a residue", "--query", fasta("digit.fa", ">d\nAC1T\n"), "--target", same)
        refused("smith-waterman", "holds no record", "--query", fasta("empty.fa", ""), "--target", same)
        refused("smith-waterman", "give both --query and --target", "--query", same)
        refused("smith-waterman", "alphabet must be dna or protein, got 'rna'", "--alphabet", "rna")
        refused("smith-waterman", "gap costs are penalties", "--gap-open", "-1")
        refused("smith-waterman", "size must be QUERYxTARGET", "--size", "5x-1")
        refused("smith-waterman", "--size is for random pairs", "--query", same, "--target", same, "--size", "5")
        refused("smith-waterman", "tile", "--tile", "0x5")
        refused("sat", "size", "--size", "0x5")
        refused("inthist", "bins must be 8, 16, 32 or 64, got 10", "--bins", "10")
        refused("dtw", "size", "--size", "7x")
        refused("smith-waterman", "--width must be auto or a whole number from 8 to 65536, got '7'", "--width", "7")
        refused("dtw", "--width must be auto or a whole number from 8 to 65536, got 'wide'", "--width", "wide")
        refused("sat", "--width must be", "--width", "32x")
        refused("sat", "layout must be auto, row or banded, got 'diagonal'", "--layout", "diagonal")
        refused("sat", "more than this machine", "--size", "2000000x2000000")
    print("wavefront apps:", "all checks passed" if not failures else f"{len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    apps_dir = sys.argv[1]
    sys.exit(main())
