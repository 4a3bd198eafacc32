#!/usr/bin/env python3
"""The stencil apps under mpirun (issue 12): 2 and 3 ranks at odd sizes and
with periodic boundaries give bit for bit the 1-rank result, with halo
pieces through MPI and through the node's shared memory. Each run writes
its whole field with --output (rank 0 receives it from the others), and
--verify checks it against the sequential reference; the --json line is
printed once and names the ranks. StarPU-MPI's own statistics show that
only halo strips travel during a run. The wavefront apps give 1 rank's
scores, distances and tables on 2 and 3 ranks.

Usage: mpi_apps_test.py APPS_DIR
"""
import filecmp
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

failures = []

# Odd sizes and tiles: tiles do not divide the domain and ranks own unequal boxes.
CASES = [
    ("jacobi2d", "--size 301x217 --steps 9 --tile 64x48 --height 2"),
    ("jacobi2d", "--size 157x131 --steps 6 --tile 40x40 --height 3 --boundary periodic --type double"),
    ("jacobi3d", "--size 37x29x23 --steps 5 --tile 16x16x8 --height 2"),
    ("hotspot", "--size 203x151 --steps 7 --tile 64x64 --height 3"),
    ("life", "--size 255x199 --steps 8 --tile 64x50 --height 4 --boundary periodic"),
    ("pathfinder", "--size 10001 --steps 40 --tile 1500 --height 5"),
    ("himeno", "--size 37x29x23 --steps 5 --tile 16x16x8 --height 2"),
    ("cip", "--size 203x151 --steps 7 --tile 64x48 --height 3"),
]
# The wavefront apps: rows of tiles dealt to the ranks; their JSON fields
# (score, distance, totals, histogram, last cell) must equal 1 rank's, and
# --verify checks the whole table (sat, inthist) or the score on rank 0.
WAVEFRONT_CASES = [
    ("smith-waterman", "--size 1501x1203 --tile 128x96", ["score", "last_cell"]),
    ("smith-waterman", "--size 700x1900 --tile 64x200 --alphabet protein", ["score", "last_cell"]),
    ("dtw", "--size 999x1001 --tile 100x128", ["distance"]),
    ("sat", "--size 601x457 --tile 64x50", ["total"]),
    ("inthist", "--size 333x251 --tile 40x32 --bins 8", ["histogram"]),
    # In-place sweeps: bands of tile rows per rank; --verify compares rank 0's
    # gathered grid with the sequential loop cell by cell.
    ("sor", "--size 203x157 --tile 32x40 --sweeps 13", ["max_error", "omega"]),
    ("heat2d", "--size 150x301 --tile 16x64 --sweeps 9", ["mean", "centre"]),
]
# Inputs of the generated-grid and checkpoint cases: a fresh seed each run, printed.
SEED = random.randrange(1, 2**31)
MPIRUN = ["mpirun", "--allow-run-as-root", "--oversubscribe", "--bind-to", "none"]
# One StarPU worker per rank: the CI machine has two cores for all ranks.
ENVIRONMENT = dict(os.environ, STARPU_NCPU="1", STARPU_NCUDA="0", STARPU_SILENT="1", STARPU_WORKERS_NOBIND="1",
                   OMPI_MCA_btl="self,vader",
                   OMPI_MCA_rmaps_base_oversubscribe="1")


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what, flush=True)


def run_json(ranks, app, arguments, extra=(), environment=None):
    """One run (under mpirun with more than one rank); rank 0's JSON line, checked to be the only one."""
    command = [os.path.join(apps_dir, app), *arguments.split(), *extra, "--json"]
    if ranks > 1:
        command = MPIRUN + ["-np", str(ranks)] + command
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=240,
                          env=environment or ENVIRONMENT)
    what = f"{ranks} rank(s): {app} {arguments}"
    check(done.returncode == 0, f"{what}: exit {done.returncode}: {done.stderr.strip()[-2000:]}")
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    check(len(lines) == 1, f"{what}: expected one JSON line (rank 0's), got {len(lines)}: {done.stdout!r}")
    return json.loads(lines[0]) if len(lines) == 1 else {}


def run(ranks, app, arguments, output, extra=(), environment=None):
    """A verified run; --output when given."""
    report = run_json(ranks, app, arguments, [*extra, "--verify", *(["--output", output] if output else [])],
                      environment)
    what = f"{ranks} rank(s): {app} {arguments}"
    check(report.get("verified") is True, f"{what}: not verified: {report}")
    check(report.get("ranks") == ranks, f"{what}: ranks {report.get('ranks')} in the JSON line")
    return report


def sent_bytes_per_rank(stderr):
    """Bytes each rank sent, from StarPU-MPI's statistics (STARPU_MPI_STATS=1)."""
    sent = {}
    for line in stderr.splitlines():
        match = re.match(r"\[starpu_comm_stats\]\[(\d+)\] TOTAL:\s+([0-9.]+) B", line)
        if match:
            sent[int(match.group(1))] = float(match.group(2))
    return sent


def run_counting_mpi_bytes(ranks, app, arguments, environment):
    """A run under mpirun with StarPU-MPI's statistics on: the finished
    process, the bytes each rank sent, and rank 0's JSON line ({} if none)."""
    environment = dict(environment, STARPU_MPI_STATS="1")
    environment.pop("STARPU_SILENT", None)
    done = subprocess.run(MPIRUN + ["-np", str(ranks), os.path.join(apps_dir, app), *arguments], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=240, env=environment)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    return done, sent_bytes_per_rank(done.stderr), json.loads(lines[0]) if len(lines) == 1 else {}


def only_halos_travel():
    """jacobi2d 256x256 in 2x4 tiles of 128x64 on 2 ranks: the partitioner cuts
    y (the tiles' long side faces the cut), so each rank owns 2x2 tiles. Per
    stage of h = 2 steps, each of a rank's two tiles at the cut sends the
    tile below it a strip of 128 x 2 cells and the diagonal tile a 2 x 2
    corner, in both directions; nothing else moves during the run. With
    --checksum alone the field stays where it was computed (each rank sums
    its own tiles): no tile travels at the end. With --output rank 1 then
    sends rank 0 its four tiles, each with its ghost zone (132 x 68 cells)."""
    steps, height, cell = 8, 2, 4
    ghost = 1 * height
    halo_per_stage = 2 * (128 * ghost + ghost * ghost) * cell
    gathered = 4 * (128 + 2 * ghost) * (64 + 2 * ghost) * cell
    arguments = ["--size", "256x256", "--steps", str(steps), "--tile", "128x64", "--height", str(height), "--json",
                 "--checksum"]
    alone = subprocess.run([os.path.join(apps_dir, "jacobi2d"), *arguments], stdout=subprocess.PIPE, text=True,
                           timeout=240, env=ENVIRONMENT)
    one_rank = json.loads(alone.stdout.splitlines()[-1]) if alone.returncode == 0 and alone.stdout else {}
    with tempfile.TemporaryDirectory() as tmp:
        for output, tiles_gathered in [(None, 0), (os.path.join(tmp, "field.txt"), gathered)]:
            done, sent, report = run_counting_mpi_bytes(2, "jacobi2d", arguments + (["--output", output] if output else []),
                                                        ENVIRONMENT)
            check(done.returncode == 0, f"traffic run: exit {done.returncode}: {done.stderr.strip()[-2000:]}")
            expected = {0: (steps // height) * halo_per_stage, 1: (steps // height) * halo_per_stage + tiles_gathered}
            check(sent == expected, f"--output {output}: bytes sent per rank {sent}, expected {expected}")
            check(one_rank.get("checksum") is not None and report.get("checksum") == one_rank.get("checksum"),
                  f"--output {output}: 2 ranks' checksum {report.get('checksum')} against 1 rank's {one_rank.get('checksum')}")
            check((report.get("collect_seconds", -1) > 0) == bool(output),
                  f"--output {output}: collect_seconds {report.get('collect_seconds')}")
            print(f"--output {output}: bytes sent per rank: {sent}", flush=True)
    # Through the node's shared memory no halo byte goes through MPI: the
    # posts and takes exchange zero-byte messages only, and the result is 1 rank's.
    done, sent, report = run_counting_mpi_bytes(2, "jacobi2d", arguments, dict(ENVIRONMENT, TRAPEZE_NODE_EXCHANGE="host"))
    check(done.returncode == 0 and sent == {0: 0, 1: 0} and report.get("node_exchange") == "host" and
          report.get("checksum") == one_rank.get("checksum"),
          f"pieces through host memory: exit {done.returncode}, bytes sent per rank {sent} (expected none), "
          f"node_exchange {report.get('node_exchange')}, checksum {report.get('checksum')} against {one_rank.get('checksum')}")
    print(f"pieces through host memory: bytes sent per rank through MPI: {sent}", flush=True)


def generated_grids_across_ranks():
    """--no-grid under mpirun: each rank's tiles take their initial cells from
    the cell function, its gather tasks add its final cells to its checksum,
    and the ranks' checksums add up to the ordinary 1-rank run's. --verify
    deals the banded reference's bands to the ranks and adds their checksums
    the same way. No rank ever holds the domain: rank 0's peak memory above
    a tiny run's is about its share of the tiles (half on 2 ranks), where an
    ordinary grid on every rank costs the whole domain each."""
    for app, arguments in [("jacobi2d", f"--size 301x217 --steps 9 --tile 64x48 --height 2 --seed {SEED}"),
                           ("jacobi2d", f"--size 157x131 --steps 6 --tile 40x40 --height 3 --boundary periodic --type double --seed {SEED}"),
                           ("jacobi3d", f"--size 37x29x23 --steps 5 --tile 16x16x8 --height 2 --boundary constant:0.5 --seed {SEED}")]:
        ordinary = run_json(1, app, arguments + " --checksum")
        # The random inputs also cross the ranks through the node's shared memory.
        for ranks, exchange in ((2, "mpi"), (3, "mpi"), (2, "host"), (3, "host")):
            what = f"{ranks} ranks, pieces through {exchange}: {app} {arguments} --no-grid"
            spread = run_json(ranks, app, arguments + " --no-grid --verify", (),
                              dict(ENVIRONMENT, TRAPEZE_NODE_EXCHANGE=exchange))
            check(spread.get("verified") is True, f"{what}: not verified: {spread}")
            check(spread.get("generated_grid") is True and spread.get("ranks") == ranks and
                  spread.get("node_exchange") == exchange, f"{what}: {spread}")
            check(ordinary.get("checksum") is not None and spread.get("checksum") == ordinary.get("checksum"),
                  f"{what}: checksum {spread.get('checksum')} against 1 rank's ordinary run {ordinary.get('checksum')}")
            print(f"{what}: verified, checksum as 1 rank's", flush=True)
    # The automatic tile counts every rank's workers (one each here): 4 ranks
    # on 64x64 at h = 1 cut it into 2 bands a worker, where one rank's count
    # gave 2 tiles and a refusal ("4 owners but the tiling has only 2 tiles").
    auto = run_json(4, "jacobi2d", "--size 64 --steps 3 --height 1 --no-grid --verify")
    check(auto.get("verified") is True and auto.get("tiles") == 8,
          f"4 ranks, jacobi2d 64x64 with the automatic tile: {auto.get('tiles')} tiles, verified {auto.get('verified')}")
    # 8192x4096 float: 128 MiB of cells in 8192x1024 tiles, 2 a rank on 2 ranks.
    large = "--size 8192x4096 --steps 2 --height 1 --tile 8192x1024 --no-grid"
    tiny = "--size 64 --steps 2 --height 1 --no-grid"
    one, two = run_json(1, "jacobi2d", large), run_json(2, "jacobi2d", large)
    domain = one.get("domain_bytes", 0)
    above_one = one.get("peak_memory_bytes", 0) - run_json(1, "jacobi2d", tiny).get("peak_memory_bytes", 0)
    above_two = two.get("peak_memory_bytes", 0) - run_json(2, "jacobi2d", tiny).get("peak_memory_bytes", 0)
    check(domain > 0 and above_one > 0.9 * domain and above_two < 0.6 * domain and one.get("checksum") == two.get("checksum"),
          f"--no-grid memory: domain {domain} B, rank 0's peak above a tiny run's {above_one} B on 1 rank, "
          f"{above_two} B on 2 (expected about the domain, and at most 0.6 of it)")
    print(f"--no-grid 8192x4096: rank 0 holds {above_one / domain:.2f} of the domain alone, "
          f"{above_two / domain:.2f} on 2 ranks", flush=True)


def warmup_across_ranks():
    """--warmup-steps across ranks: the field moves into the tiles, the rest
    of the steps are timed apart (stepping_seconds), and the result is the
    1-rank run's. The partition's predicted exchange: 1024x1024 in tiles of
    1024x128 on 2 ranks cuts y once, and each stage of h = 4 sends a strip of
    1024 x 4 cells each way (32768 B) after every stage but the last; the
    warm-up ends with a stage of its own (W = 4: 5 stages of 20 steps, 4
    exchanges, 131072 B; W = 7: 2 + 4 stages, 163840 B)."""
    arguments = f"--size 1024x1024 --tile 1024x128 --height 4 --steps 20 --seed {SEED}"
    single = run_json(1, "jacobi2d", arguments + " --checksum")
    for ranks, warmup in ((2, 4), (2, 7), (3, 13)):
        spread = run_json(ranks, "jacobi2d", arguments + f" --no-grid --warmup-steps {warmup}")
        what = f"{ranks} ranks, jacobi2d {arguments} --warmup-steps {warmup}"
        check(spread.get("checksum") is not None and spread.get("checksum") == single.get("checksum"),
              f"{what}: checksum {spread.get('checksum')} against 1 rank's {single.get('checksum')}")
        stepping, seconds = spread.get("stepping_seconds"), spread.get("seconds", 0)
        check(stepping is not None and 0 < stepping <= seconds, f"{what}: stepping_seconds {stepping}, seconds {seconds}")
        if ranks == 2:
            expected = {4: 131072, 7: 163840}[warmup]
            check(spread.get("predicted_exchange_bytes") == expected,
                  f"{what}: predicted_exchange_bytes {spread.get('predicted_exchange_bytes')}, expected {expected}")
        print(f"{what}: checksum as 1 rank's, {stepping} s of {seconds} s timed after the warm-up", flush=True)


def checkpoints_across_ranks():
    """--checkpoint under mpirun: rank 0 receives each checkpoint step's tiles
    while the run goes on and writes the file. A run restarted from it, on 1
    rank or on the ranks that wrote it, ends bit for bit where the
    uninterrupted 1-rank run does (read-only fields included: hotspot's power
    map is in the checkpoint)."""
    for app, arguments in [("jacobi2d", f"--size 301x217 --tile 64x48 --height 2 --seed {SEED}"),
                           ("hotspot", f"--size 203x151 --tile 64x64 --height 3 --seed {SEED}"),
                           ("jacobi3d", f"--size 37x29x23 --tile 16x16x8 --height 2 --boundary periodic --seed {SEED}")]:
        steps, every = 20, 6  # the last checkpoint holds step 18
        with tempfile.TemporaryDirectory() as tmp:
            full = os.path.join(tmp, "full.txt")
            run(1, app, f"{arguments} --steps {steps}", full)
            for ranks in (2, 3):
                checkpoint = os.path.join(tmp, f"checkpoint-{ranks}.h5")
                run(ranks, app, f"{arguments} --steps {steps} --checkpoint {checkpoint} --checkpoint-every {every}", None)
                check(os.path.exists(checkpoint), f"{ranks} ranks: {app} {arguments}: no checkpoint written")
                for restart_ranks in (1, ranks):
                    resumed = os.path.join(tmp, f"resumed-{ranks}-{restart_ranks}.txt")
                    run(restart_ranks, app, f"{arguments} --steps {steps} --restart {checkpoint}", resumed)
                    same = os.path.exists(resumed) and os.path.exists(full) and filecmp.cmp(full, resumed, shallow=False)
                    check(same, f"{app} {arguments}: checkpoint of {ranks} ranks restarted on {restart_ranks}: "
                                f"--output differs from the uninterrupted run's")
                print(f"{app} {arguments}: {ranks} ranks' checkpoint, restarted on 1 and {ranks} ranks, "
                      f"{'ends as the uninterrupted run' if same else 'DIFFERS'}", flush=True)


def wavefront_checkpoints_across_ranks():
    """Score-only wavefronts under mpirun: rank 0 receives each checkpoint's
    strips and folds and writes the file, byte for byte the 1-rank run's
    checkpoint; restarted on other rank counts, the run ends with 1 rank's
    score and last cell (verified against the whole sequential reference)."""
    for app, arguments, fields in [("smith-waterman", f"--size 1501x1203 --tile 128x96 --seed {SEED}", ["score", "last_cell"]),
                                   ("dtw", f"--size 999x1001 --tile 100x128 --seed {SEED}", ["distance"])]:
        with tempfile.TemporaryDirectory() as tmp:
            single = os.path.join(tmp, "1.ckpt")
            alone = run(1, app, f"{arguments} --checkpoint {single} --checkpoint-every 3", None)
            for ranks in (2, 3):
                checkpoint = os.path.join(tmp, f"{ranks}.ckpt")
                run(ranks, app, f"{arguments} --checkpoint {checkpoint} --checkpoint-every 3", None)
                same = os.path.exists(single) and os.path.exists(checkpoint) and filecmp.cmp(single, checkpoint, shallow=False)
                check(same, f"{ranks} ranks: {app} {arguments}: the checkpoint differs from 1 rank's")
                resumed = run(5 - ranks, app, f"{arguments} --restart {checkpoint}", None)
                for field in fields:
                    check(field in alone and resumed.get(field) == alone.get(field),
                          f"{app} {arguments}: {ranks} ranks' checkpoint restarted on {5 - ranks}: {field} "
                          f"{resumed.get(field)} against {alone.get(field)}")
                print(f"{app} {arguments}: {ranks} ranks' checkpoint {'equals' if same else 'DIFFERS FROM'} 1 rank's; "
                      f"restarted on {5 - ranks} ranks", flush=True)


def refused_across_ranks():
    """What does not run across ranks yet, or a halo path that does not
    exist, says so in one line per rank, exit 2."""
    for app, arguments, needle, environment in [
            ("jacobi2d", "--size 64 --sweep-height 1:2", "--sweep-height", ENVIRONMENT),
            ("jacobi2d", "--size 64 --steps 2", "'shared'", dict(ENVIRONMENT, TRAPEZE_NODE_EXCHANGE="shared"))]:
        command = MPIRUN + ["-np", "2", os.path.join(apps_dir, app), *arguments.split()]
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120,
                              env=environment, cwd=tempfile.gettempdir())
        lines = [line for line in done.stderr.splitlines() if needle in line]
        check(done.returncode != 0 and len(lines) == 2,
              f"2 ranks: {app} {arguments}: expected a non-zero exit and one line per rank naming {needle!r}, "
              f"got {done.returncode}: {done.stderr[-1500:]!r}")


def main():
    if shutil.which("mpirun") is None:
        print("mpirun not found")
        return 1
    print(f"seed of the generated-grid and checkpoint cases: {SEED}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        for index, (app, arguments) in enumerate(CASES):
            single = os.path.join(tmp, f"{index}-1.txt")
            # --checksum: under MPI each rank adds the cells of its own tiles
            # and the sums are added up (the field is gathered only afterwards).
            single_report = run(1, app, arguments, single, ["--checksum"])
            # Halo pieces between the ranks (all on this node) through MPI,
            # then through the node's shared host memory (trapeze/node_exchange.hpp).
            for ranks, exchange in ((2, "mpi"), (3, "mpi"), (2, "host"), (3, "host")):
                spread = os.path.join(tmp, f"{index}-{ranks}-{exchange}.txt")
                environment = dict(ENVIRONMENT, TRAPEZE_NODE_EXCHANGE=exchange)
                spread_report = run(ranks, app, arguments, spread, ["--checksum"], environment)
                what = f"{ranks} ranks, pieces through {exchange}: {app} {arguments}"
                same = os.path.exists(single) and os.path.exists(spread) and filecmp.cmp(single, spread, shallow=False)
                check(same, f"{what}: --output differs from 1 rank's")
                check(single_report.get("checksum") is not None and spread_report.get("checksum") == single_report.get("checksum"),
                      f"{what}: checksum {spread_report.get('checksum')} against 1 rank's {single_report.get('checksum')}")
                check(spread_report.get("node_exchange") == exchange,
                      f"{what}: node_exchange {spread_report.get('node_exchange')} in the JSON line")
                print(f"{what}: {'equal 1 rank' if same else 'DIFFER'}", flush=True)
        for app, arguments, fields in WAVEFRONT_CASES:
            single = run(1, app, arguments, None)
            for ranks in (2, 3):
                spread = run(ranks, app, arguments, None)
                for field in fields:
                    check(field in single and spread.get(field) == single.get(field),
                          f"{ranks} ranks: {app} {arguments}: {field} {spread.get(field)} against 1 rank's {single.get(field)}")
                print(f"{app} {arguments}: {ranks} ranks, {', '.join(fields)} as 1 rank's", flush=True)
        written = os.path.join(tmp, "sat.h5")
        run(2, "sat", "--size 301x257 --tile 64x50", written)
        check(os.path.exists(written), "2 ranks: sat --output wrote no file")
    only_halos_travel()
    generated_grids_across_ranks()
    warmup_across_ranks()
    checkpoints_across_ranks()
    wavefront_checkpoints_across_ranks()
    refused_across_ranks()
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    apps_dir = os.path.abspath(sys.argv[1])
    sys.exit(main())
