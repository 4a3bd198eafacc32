#!/usr/bin/env python3
"""Trapeze's scaling model on paper (issue 12; docs/SCALING.md explains it).

Predicts the parallel efficiency of jacobi2d and jacobi3d (float) on P GPUs,
strong scaling (one domain, the largest a single GPU holds) and weak scaling
(that domain per GPU), from measured numbers only:

  - per-GPU kernel rate at kernel height k (benchmarks/gpu_kernel_probe, H100,
    scaled to an H200 by the copy bandwidths' ratio 4.25 / 3.01 TB/s);
  - the runtime's fixed cost per stage: one dependent StarPU task turnaround
    on an idle GPU (45 us, docs/PERF.md: jacobi2d h = 1 against the plain loop);
  - links: NVLink 396 GB/s between two H200s (measured), 8 GPUs to a node;
    pinned PCIe 55 GB/s each way (measured); between nodes a 400 Gb/s
    InfiniBand port per GPU (50 GB/s, 3 us; assumed, not measured here).

A stage of H steps on one GPU takes
    t_stage = cells_per_gpu * H * (1 + redundancy(H)) / rate + t_task
and exchanges with each neighbour one strip of (face cells) * r * H cells;
across nodes without GPUDirect a strip goes GPU -> host -> network -> host ->
GPU. Efficiency with none of the exchange hidden (the lower bound):
    E = t_compute / (t_stage + t_exchange)
and with the exchange hidden behind the interior's compute (StarPU runs
tiles whose strips have arrived while others wait; the upper bound):
    E = t_compute / max(t_stage, t_exchange + t_task).
Messages per step are neighbours / H: the trapezoid height divides them.

Usage: scripts/scaling_model.py [--json FILE]   (prints the tables)
"""
import argparse
import json
import math

H200_OVER_H100 = 4.25 / 3.01
KERNEL_RATE_H100 = {  # G cell updates per second, kernels alone (docs/PERF.md, 2026-11-23/24)
    ("jacobi2d", 1): 328.1, ("jacobi2d", 8): 737.9,
    ("jacobi3d", 1): 264.6, ("jacobi3d", 2): 130.4,
}
TASK_TURNAROUND = 45e-6          # s per stage on the critical path (measured, H100)
NVLINK = (396e9, 5e-6)           # bytes/s, latency (bandwidth measured on H200 x2)
PCIE = (55e9, 10e-6)             # pinned host <-> device, each way (measured)
NETWORK = (50e9, 3e-6)           # 400 Gb/s InfiniBand per GPU (assumed)
GPUS_PER_NODE = 8
# One MPI rank per GPU in one node, StarPU-MPI without CUDA-aware MPI: a
# strip goes GPU -> host -> Open MPI's shared memory -> host -> GPU. The
# rate is fitted, not a link's: jacobi3d 2016^3 on 4 H200s, 4 ranks against
# one process, 24.7 ms more per stage for the 2 x 48.8 MB a middle rank
# sends (docs/PERF.md, 2026-11-26); the other rank runs check it.
RANKS_IN_NODE = (4.0e9, 50e-6)
# Since then ranks of one node pass strips through mailboxes (trapeze/node_exchange.hpp):
# the producer copies a strip into its GPU's mailbox, the consumer copies it
# over NVLink into its own; both copies run on the compute stream, so they
# add to the stage instead of hiding behind it.
LOCAL_COPY = 4.25e12             # bytes/s read + write, H200 device-to-device copy (measured)
# What a stage on ranks costs beyond those copies, fitted: jacobi3d 2016^3 on
# 4 H200s, 4 ranks, 15.97 ms a stage against the model's 14.35 (docs/PERF.md,
# 2026-11-26); the other five mailbox rows check it. Post, zero-byte message
# through StarPU-MPI's progress thread, take, on the path between two ranks' stages.
MAILBOX_STAGE_LATENCY = 1.6e-3   # s
CELL_BYTES = 4
RADIUS = 1
# The largest domain one H200 holds: two padded buffers per tile on the GPU
# (8 B per cell) in about 130 GiB of its 139: 2-D 120000^2, 3-D 2400^3.
STRONG_SIZE = {"jacobi2d": 120000, "jacobi3d": 2400}


def grid(p, dims):
    """The owner grid the partitioner makes for P equal owners of a square or
    cubic domain: as even as the factors allow (the gcd rule on many tiles)."""
    best = None
    for a in range(1, p + 1):
        if p % a:
            continue
        if dims == 2:
            shape = (a, p // a)
        else:
            rest = p // a
            for b in range(1, rest + 1):
                if rest % b:
                    continue
                shape = (a, b, rest // b)
                if best is None or max(shape) < max(best):
                    best = shape
            continue
        if best is None or max(shape) < max(best):
            best = shape
    return best


def predict(app, p, n, height, kernel_height, rate=None, owners=None, link=None, neighbours=None, mailboxes=False):
    """`rate`: G cell updates/s of one GPU at these heights (a measured run's);
    by default the H100 kernel's at k, scaled to an H200. `n`: the domain's
    side, or its extent per dimension (x, y[, z]). `owners`: the owner grid
    (by default the most even one); `link`: RANKS_IN_NODE for one MPI rank
    per GPU in a node (NVLink otherwise, the network past a node);
    `neighbours`: the strips a GPU sends per exchange (by default a middle
    GPU's: two per cut dimension); `mailboxes`: ranks of one node through
    mailboxes (NVLink, with the two copies on the compute stream)."""
    dims = 2 if app == "jacobi2d" else 3
    owners = owners or grid(p, dims)
    extent = n if isinstance(n, (tuple, list)) else (n,) * dims
    side = [e / g for e, g in zip(extent, owners)]      # cells per GPU along each dimension
    cells = math.prod(side)
    ghost = RADIUS * height
    # Redundant updates of a trapezoid whose ghost zone shrinks by r per step
    # (shrink mode): on average half the ghost width per cut face.
    grown = math.prod(s + (ghost if g > 1 else 0) for s, g in zip(side, owners))
    redundancy = grown / cells - 1
    rate = (rate if rate is not None else KERNEL_RATE_H100[(app, kernel_height)] * H200_OVER_H100) * 1e9
    t_compute = cells * height / rate
    t_stage = t_compute * (1 + redundancy) + TASK_TURNAROUND
    # Neighbours of a GPU in the middle of the grid, each sent one face strip.
    faces = [math.prod(s for j, s in enumerate(side) if j != d) for d in range(dims)]
    if neighbours is None:
        neighbours = sum(2 for g in owners if g > 1) if p > 1 else 0
    strip_bytes = max((f for f, g in zip(faces, owners) if g > 1), default=0) * ghost * CELL_BYTES
    across_nodes = p > GPUS_PER_NODE
    if neighbours == 0:
        t_exchange = 0.0
    elif link is not None:
        bandwidth, latency = link
        t_exchange = neighbours * strip_bytes / bandwidth + latency
    elif across_nodes:
        bandwidth, latency = NETWORK
        staging = 2 * (strip_bytes / PCIE[0] + PCIE[1])  # off the GPU and onto the next
        t_exchange = neighbours * strip_bytes / bandwidth + latency + staging
    else:
        bandwidth, latency = NVLINK
        t_exchange = neighbours * strip_bytes / bandwidth + latency
    if mailboxes and neighbours:
        # Each strip out: a copy into the own mailbox; each strip in: a copy
        # over NVLink; both on the compute stream, so in the stage. The post's
        # trip to the take is on the exchange's path: the tiles whose strips
        # are in compute meanwhile (2 H200s, 2026-11-29: with it in the stage
        # the model was 6-12% under 2-rank runs of 2 tiles a rank).
        t_stage += neighbours * (2 * strip_bytes / LOCAL_COPY + strip_bytes / NVLINK[0])
        t_exchange += MAILBOX_STAGE_LATENCY
    ideal = t_compute
    lower = ideal / (t_stage + t_exchange)
    upper = ideal / max(t_stage, t_exchange + TASK_TURNAROUND)
    return {
        "app": app, "gpus": p, "grid": "x".join(str(g) for g in owners), "n": "x".join(str(e) for e in extent), "height": height,
        "kernel_height": kernel_height, "cells_per_gpu": cells, "redundancy": redundancy,
        "stage_ms": t_stage * 1e3, "exchange_ms": t_exchange * 1e3, "messages_per_step": neighbours / height,
        "efficiency_no_overlap": lower, "efficiency_overlap": upper,
    }


def rows():
    out = []
    for app, (height, k) in (("jacobi2d", (16, 8)), ("jacobi3d", (4, 1))):
        n1 = STRONG_SIZE[app]
        dims = 2 if app == "jacobi2d" else 3
        for p in (1, 2, 4, 8, 64, 1024):
            strong = predict(app, p, n1, height, k)
            strong["scaling"] = "strong"
            weak_n = round(n1 * p ** (1 / dims))
            weak = predict(app, p, weak_n, height, k)
            weak["scaling"] = "weak"
            out += [strong, weak]
        # The trapezoid height's effect at 64 GPUs, strong scaling.
        for h in (1, 4, 16, 64):
            r = predict(app, 64, n1, h, 1 if (app == "jacobi3d" or h < 8) else 8)
            r["scaling"] = "strong, height sweep"
            out.append(r)
    return out


def one_h100(app, n, height, kernel_height, tiles=2):
    """The model's 1-GPU prediction for a measured H100 run (no H200 scaling):
    each stage is `tiles` dependent tasks' worth of turnaround at most; one
    is on the critical path."""
    dims = 2 if app == "jacobi2d" else 3
    cells = n ** dims
    t_stage = cells * height / (KERNEL_RATE_H100[(app, kernel_height)] * 1e9) + TASK_TURNAROUND
    return cells * height / t_stage / 1e9


# Measured on one H100 (docs/PERF.md, 2026-11-23, run B): app, n, H, k, G cell updates/s.
MEASURED_ONE_GPU = [("jacobi2d", 16384, 16, 8, 713.9), ("jacobi2d", 16384, 1, 1, 290.9),
                    ("jacobi3d", 512, 3, 1, 203.0), ("jacobi3d", 512, 1, 1, 218.3)]


# Measured on two H100s of one node (docs/PERF.md, 2026-11-25): app, n, H, k,
# one-GPU G cell updates/s of the run, and the 2-GPU speed-ups of the three
# interleaved calls (one process, trapeze-owner). The model takes the run's
# measured 1-GPU rate (its heights, its tiles), not the kernel's.
MEASURED_TWO_GPUS = [("jacobi2d", 49152, 16, 16, 473.2, (1.806, 1.871, 1.913)),
                     ("jacobi3d", 1024, 3, 3, 222.9, (1.722, 1.729, 1.805))]


# Measured on 4 H200s of one node (docs/PERF.md, 2026-11-26, scripts/device/device_scaling.sh):
# app, domain extent, H, k, the run's 1-GPU stepping rate (G cell updates/s,
# after a warm-up), GPUs, owner grid (the partitioner's cut of the run's
# tiles), "gpus" (one process, NVLink) or "ranks", and the measured speed-up
# of the stepping over 1 GPU (weak: times the domain's growth). The strips a
# GPU sends are counted exactly: 1 for an end GPU, 2 for a middle one; the
# model takes the busiest.
MEASURED_FOUR_GPUS = [
    ("jacobi2d", (81920, 81920), 12, 12, 902.0, 4, (1, 4), "gpus", 3.925),
    ("jacobi2d", (81920, 81920), 12, 12, 902.0, 4, (1, 4), "ranks", 3.721),
    ("jacobi2d", (90112, 90112), 16, 16, 904.8, 2, (1, 2), "gpus", 1.987),
    ("jacobi2d", (90112, 90112), 16, 16, 904.8, 2, (1, 2), "ranks", 1.897),
    ("jacobi2d", (90112, 180224), 16, 16, 904.8, 2, (1, 2), "gpus", 2 * 0.998),
    ("jacobi2d", (90112, 180224), 16, 16, 904.8, 2, (1, 2), "ranks", 2 * 0.961),
    ("jacobi3d", (2016, 2016, 2016), 3, 3, 450.8, 2, (1, 1, 2), "gpus", 1.956),
    ("jacobi3d", (2016, 2016, 2016), 3, 3, 450.8, 2, (1, 1, 2), "ranks", 1.434),
    ("jacobi3d", (2016, 2016, 2016), 3, 3, 450.8, 4, (1, 1, 4), "gpus", 3.728),
    ("jacobi3d", (2016, 2016, 2016), 3, 3, 450.8, 4, (1, 1, 4), "ranks", 1.387),
    ("jacobi3d", (2016, 2016, 4032), 3, 3, 450.8, 2, (1, 1, 2), "gpus", 2 * 0.992),
    ("jacobi3d", (2016, 2016, 4032), 3, 3, 450.8, 2, (1, 1, 2), "ranks", 2 * 0.854),
    ("jacobi3d", (2016, 4032, 4032), 3, 3, 450.8, 4, (1, 1, 4), "gpus", 4 * 0.972),
    ("jacobi3d", (2016, 4032, 4032), 3, 3, 450.8, 4, (1, 1, 4), "ranks", 4 * 0.623),
]
# The same on a machine of 2 H200s (nvidia-h200-x2, docs/PERF.md,
# 2026-11-29), the 16-byte trapezoids, one process (its rank rows are in
# MEASURED_MAILBOXES).
MEASURED_TWO_H200S = [
    ("jacobi2d", (90112, 90112), 6, 6, 1736.2, 2, (1, 2), "gpus", 2.005),
    ("jacobi2d", (90112, 180224), 6, 6, 1736.2, 2, (1, 2), "gpus", 2 * 1.003),
    ("jacobi3d", (2016, 2016, 2016), 4, 4, 808.8, 2, (1, 1, 2), "gpus", 2.077),
    ("jacobi3d", (2016, 2016, 4032), 4, 4, 808.8, 2, (1, 1, 2), "gpus", 2 * 1.065),
]


# Ranks of one node through mailboxes (docs/PERF.md, 2026-11-26, "node
# exchange"): app, extent, H, k, the call's 1-GPU rate, GPUs, owner grid,
# measured speed-up of the stepping (weak: efficiency x GPUs), machine.
MEASURED_MAILBOXES = [
    ("jacobi2d", (90112, 90112), 16, 16, 903.8, 2, (1, 2), 1.984, "2 H200"),
    ("jacobi2d", (81920, 81920), 16, 16, 904.2, 4, (1, 4), 3.888, "4 H200"),
    ("jacobi3d", (2016, 2016, 2016), 3, 3, 450.6, 2, (1, 1, 2), 1.881, "2 H200"),
    ("jacobi3d", (2016, 2016, 2016), 3, 3, 449.3, 2, (1, 1, 2), 1.880, "4 H200"),
    ("jacobi3d", (2016, 2016, 2016), 3, 3, 449.3, 4, (1, 1, 4), 3.427, "4 H200"),
    ("jacobi3d", (2016, 4032, 4032), 3, 3, 450.0, 4, (1, 1, 4), 4 * 0.937, "4 H200"),
    # 2026-11-29, 2 H200s, the 16-byte trapezoids (1-GPU stepping 1.9x and 1.8x faster):
    # strong, and weak (efficiency x 2).
    ("jacobi2d", (90112, 90112), 6, 6, 1736.2, 2, (1, 2), 1.999, "2 H200"),
    ("jacobi2d", (90112, 180224), 6, 6, 1736.2, 2, (1, 2), 2 * 1.003, "2 H200"),
    ("jacobi3d", (2016, 2016, 2016), 4, 4, 808.8, 2, (1, 1, 2), 1.969, "2 H200"),
    ("jacobi3d", (2016, 2016, 4032), 4, 4, 808.8, 2, (1, 1, 2), 2 * 1.041, "2 H200"),
]


def mailbox_ranks():
    """The model against ranks of one node exchanging through mailboxes."""
    out = []
    for app, extent, h, k, rate, p, owners, measured, machine in MEASURED_MAILBOXES:
        r = predict(app, p, extent, h, k, rate, owners=owners, neighbours=min(2, p - 1), mailboxes=True)
        out.append({"app": app, "extent": "x".join(map(str, extent)), "height": h, "kernel_height": k, "gpus": p,
                    "machine": machine, "model_low": p * r["efficiency_no_overlap"],
                    "model_high": p * r["efficiency_overlap"], "measured": measured})
    return out


def four_gpus(measurements=MEASURED_FOUR_GPUS):
    """The model against measurements on H200s (by default the 4-H200
    machine's): speed-ups of the stepping."""
    out = []
    for app, extent, h, k, rate, p, owners, path, measured in measurements:
        r = predict(app, p, extent, h, k, rate, owners=owners, link=RANKS_IN_NODE if path == "ranks" else None,
                    neighbours=min(2, p - 1))
        out.append({"app": app, "extent": "x".join(map(str, extent)), "height": h, "kernel_height": k, "gpus": p,
                    "path": path, "model_low": p * r["efficiency_no_overlap"], "model_high": p * r["efficiency_overlap"],
                    "measured": measured})
    return out


def print_speed_ups(title, rows, column, width):
    """The model's speed-ups of the stepping beside the measured ones; `column`
    is the rows' field that tells them apart (printed `width` wide)."""
    print(f"\n{title}: the model's speed-up of the stepping over one GPU against the measured")
    print(f"{'app':9} {'domain':>15} {'H/k':>6} {'GPUs':>4} {column:>{width}} {'model lo':>9} {'model hi':>9} "
          f"{'measured':>9} {'measured/lo':>11} {'measured/hi':>11}")
    for r in rows:
        print(f"{r['app']:9} {r['extent']:>15} {r['height']:>3}/{r['kernel_height']:<2} {r['gpus']:4d} {r[column]:>{width}} "
              f"{r['model_low']:9.3f} {r['model_high']:9.3f} {r['measured']:9.3f} {r['measured'] / r['model_low']:11.3f} "
              f"{r['measured'] / r['model_high']:11.3f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="also write the rows as JSON")
    args = parser.parse_args()
    table = rows()
    print(f"{'app':9} {'scaling':21} {'GPUs':>5} {'grid':>8} {'H/k':>6} {'cells/GPU':>10} {'redund':>7} "
          f"{'stage ms':>9} {'exch ms':>8} {'msg/step':>8} {'E lo':>6} {'E hi':>6}")
    for r in table:
        print(f"{r['app']:9} {r['scaling']:21} {r['gpus']:5d} {r['grid']:>8} {r['height']:>3}/{r['kernel_height']:<2} "
              f"{r['cells_per_gpu']:10.3g} {r['redundancy']:7.3f} {r['stage_ms']:9.3f} {r['exchange_ms']:8.4f} "
              f"{r['messages_per_step']:8.3f} {r['efficiency_no_overlap']:6.3f} {r['efficiency_overlap']:6.3f}")
    print("\none H100, the model against the measured runs (G cell updates/s)")
    print(f"{'app':9} {'n':>6} {'H/k':>6} {'model':>8} {'measured':>9} {'measured/model':>15}")
    calibration = []
    for app, n, h, k, measured in MEASURED_ONE_GPU:
        model = one_h100(app, n, h, k)
        calibration.append({"app": app, "n": n, "height": h, "kernel_height": k, "model": model, "measured": measured})
        print(f"{app:9} {n:6d} {h:>3}/{k:<2} {model:8.1f} {measured:9.1f} {measured / model:15.3f}")
    print("\ntwo H100s, one process: the model's speed-up over one GPU against the measured")
    print(f"{'app':9} {'n':>6} {'H/k':>6} {'model lo':>9} {'model hi':>9} {'measured (3 calls)':>22}")
    two = []
    for app, n, h, k, rate, measured in MEASURED_TWO_GPUS:
        # The model's middle GPU has two neighbours; each of two GPUs has one
        # (without periodic boundaries), so this is a little pessimistic.
        r = predict(app, 2, n, h, k, rate)
        lo, hi = 2 * r["efficiency_no_overlap"], 2 * r["efficiency_overlap"]
        two.append({"app": app, "n": n, "height": h, "kernel_height": k, "model_low": lo, "model_high": hi,
                    "measured": list(measured)})
        print(f"{app:9} {n:6d} {h:>3}/{k:<2} {lo:9.3f} {hi:9.3f} {', '.join(f'{m:.3f}' for m in measured):>22}")
    four = four_gpus()
    print_speed_ups("four H200s", four, "path", 5)
    two_h200s = four_gpus(MEASURED_TWO_H200S)
    print_speed_ups("two H200s, the 16-byte trapezoids", two_h200s, "path", 5)
    mailboxes = mailbox_ranks()
    print_speed_ups("ranks of one node through mailboxes", mailboxes, "machine", 7)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"predictions": table, "one_gpu": calibration, "two_gpus": two, "four_gpus": four, "two_h200s": two_h200s,
                       "mailbox_ranks": mailboxes}, f, indent=1)


if __name__ == "__main__":
    main()
