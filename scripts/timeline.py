#!/usr/bin/python3
"""(Debian's python3 with python3-matplotlib, which scripts/setup.sh installs.)

Draws the task timeline of runs recorded with an app's --trace DIR (StarPU's
FxT trace): one row per worker, tasks coloured by kind (stage, publish,
scatter, gather, snapshot, checkpoint), idle time left blank, each worker's
busy share at the right. Several directories give one panel each, on one
time scale, so a trapezoid run and an h = 1 run compare at a glance.

    scripts/timeline.py trace-h8 trace-h1 --label "h = 8" --label "h = 1" -o timeline.png

The first call converts DIR/prof_file_0 with StarPU's starpu_fxt_tool, which
also leaves DIR/paje.trace for ViTE and DIR/tasks.rec (one record per task).
A table of time per kind and worker utilisation is printed last.
"""
import argparse
import glob
import os
import shutil
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

KIND_COLOURS = {
    "stage": "#3b6ea8",
    "publish": "#f0a030",
    "scatter": "#5aa05a",
    "gather": "#2e7d32",
    "snapshot": "#c0392b",
    "checkpoint": "#8e44ad",
}
OTHER_COLOUR = "#9e9e9e"
# Wavefront tiles are coloured by anti-diagonal (their priority is their
# distance to the end of the critical path), six hues in turn, so tiles of
# neighbouring diagonals running side by side show the missing barrier.
DIAGONAL_HUES = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"]
for _i, _hue in enumerate(DIAGONAL_HUES):
    KIND_COLOURS[f"diagonal mod 6 = {_i}"] = _hue


class TraceError(Exception):
    pass


def fxt_tool(explicit):
    candidates = [explicit, os.environ.get("STARPU_FXT_TOOL"), shutil.which("starpu_fxt_tool"),
                  os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".deps", "starpu", "bin",
                               "starpu_fxt_tool")]
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    raise TraceError("starpu_fxt_tool not found (scripts/setup.sh builds it into .deps/starpu/bin; "
                     "or pass --fxt-tool PATH)")


def tasks_file(directory, tool):
    """DIR/tasks.rec, made from DIR's FxT file when missing or older."""
    if not os.path.isdir(directory):
        raise TraceError(f"'{directory}' is not a directory (give the app's --trace DIR)")
    prof = sorted(glob.glob(os.path.join(directory, "prof_file*")))
    records = os.path.join(directory, "tasks.rec")
    if not prof:
        if os.path.isfile(records):
            return records
        raise TraceError(f"'{directory}' holds no prof_file* (StarPU writes it when the traced run exits)")
    if os.path.isfile(records) and os.path.getmtime(records) >= max(os.path.getmtime(p) for p in prof):
        return records
    command = [fxt_tool(tool)]
    for p in prof:
        command += ["-i", p]
    command += ["-d", directory]
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0 or not os.path.isfile(records):
        last_line = (done.stdout.strip().splitlines() or ["no output"])[-1]
        raise TraceError(f"starpu_fxt_tool failed on '{directory}' (exit {done.returncode}): {last_line}")
    return records


def task_kind(record):
    """The codelet a task ran: stage tasks carry their tile as name ("tile 2x3")
    and the stencil's performance model ("trapeze_stage_<type>")."""
    for field in ("Name", "Model"):
        value = record.get(field, "")
        if value in KIND_COLOURS:
            return value
        if value.startswith("trapeze_stage"):
            return "stage"
        if value.startswith("trapeze_wavefront"):
            return "wavefront"
    return record.get("Model") or record.get("Name") or "other"


def read_tasks(path):
    """Tasks that ran: (kind, worker, memory node, start ms, end ms)."""
    tasks = []
    priorities = []
    record = {}

    def flush():
        if {"StartTime", "EndTime", "WorkerId"} <= record.keys():
            tasks.append((task_kind(record), int(record["WorkerId"]),
                          int(record.get("MemoryNode", "0")), float(record["StartTime"]), float(record["EndTime"])))
            priorities.append(int(record.get("Priority", "0")))
        record.clear()

    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                flush()
                continue
            key, _, value = line.partition(": ")
            record[key] = value
    flush()
    if not tasks:
        raise TraceError(f"'{path}' holds no task that ran")
    # Anti-diagonal d of a wavefront: the d-th highest priority among its tiles.
    levels = sorted({p for (kind, *_), p in zip(tasks, priorities) if kind == "wavefront"}, reverse=True)
    diagonal = {p: d for d, p in enumerate(levels)}
    return [(f"diagonal mod 6 = {diagonal[p] % len(DIAGONAL_HUES)}", *rest) if kind == "wavefront" else (kind, *rest)
            for (kind, *rest), p in zip(tasks, priorities)]


def worker_labels(tasks):
    """'CPU n' for workers on main memory, 'GPU n' for those on a device's."""
    nodes = {}
    for _, worker, node, _, _ in tasks:
        nodes.setdefault(worker, node)
    labels = {}
    cpu = gpu = 0
    for worker in sorted(nodes):
        if nodes[worker] == 0:
            labels[worker] = f"CPU {cpu}"
            cpu += 1
        else:
            labels[worker] = f"GPU {gpu}"
            gpu += 1
    return labels


def summary(label, tasks):
    start = min(t[3] for t in tasks)
    end = max(t[4] for t in tasks)
    span = end - start
    workers = sorted({t[1] for t in tasks})
    busy = {w: 0.0 for w in workers}
    by_kind = {}
    for name, worker, _, s, e in tasks:
        busy[worker] += e - s
        count, total = by_kind.get(name, (0, 0.0))
        by_kind[name] = (count + 1, total + e - s)
    return {"label": label, "start": start, "span": span, "workers": workers, "busy": busy, "by_kind": by_kind}


def draw(panels, target, axis_ms=None):
    longest = axis_ms or max(p["summary"]["span"] for p in panels)
    rows = sum(len(p["summary"]["workers"]) for p in panels)
    fig, axes = plt.subplots(len(panels), 1, figsize=(11, 1.2 + 0.32 * rows + 0.9 * len(panels)), squeeze=False,
                             gridspec_kw={"height_ratios": [max(2, len(p["summary"]["workers"])) for p in panels]})
    kinds_seen = set()
    for ax, panel in zip(axes[:, 0], panels):
        s = panel["summary"]
        labels = worker_labels(panel["tasks"])
        order = {w: i for i, w in enumerate(s["workers"])}
        bars = {}
        for name, worker, _, start, end in panel["tasks"]:
            kind = name if name in KIND_COLOURS else "other"
            kinds_seen.add(kind)
            bars.setdefault((worker, kind), []).append((start - s["start"], end - start))
        for (worker, kind), spans in bars.items():
            ax.broken_barh(spans, (order[worker] - 0.4, 0.8), facecolors=KIND_COLOURS.get(kind, OTHER_COLOUR),
                           linewidth=0)
        for worker, i in order.items():
            ax.text(1.005, i, f"{100 * s['busy'][worker] / s['span']:.0f}% busy", transform=ax.get_yaxis_transform(),
                    va="center", fontsize=8)
        ax.set_yticks(range(len(order)))
        ax.set_yticklabels([labels[w] for w in s["workers"]], fontsize=8)
        ax.set_ylim(len(order) - 0.5, -0.5)
        ax.set_xlim(0, longest * 1.005)
        mean_busy = sum(s["busy"].values()) / (s["span"] * len(s["workers"]))
        tasks = sum(c for c, _ in s["by_kind"].values())
        ax.set_title(f"{s['label']}: {s['span']:.1f} ms, {tasks} tasks, workers busy {100 * mean_busy:.0f}% "
                     "(gaps: idle)", fontsize=10, loc="left")
        ax.set_facecolor("#f7f7f7")
    axes[-1, 0].set_xlabel("time since the first task (ms)")
    handles = [Patch(color=KIND_COLOURS.get(k, OTHER_COLOUR), label=k)
               for k in list(KIND_COLOURS) + ["other"] if k in kinds_seen]
    fig.legend(handles=handles, loc="upper right", ncol=len(handles), fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0, 0.93, 0.97))
    temporary = target + ".part.png"
    fig.savefig(temporary, dpi=110)
    os.replace(temporary, target)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[1],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("directories", nargs="+", help="directories given to --trace")
    parser.add_argument("-o", "--output", help="PNG to write (default: DIR/timeline.png of the first DIR)")
    parser.add_argument("--label", action="append", default=[], help="panel title, once per directory")
    parser.add_argument("--fxt-tool", help="starpu_fxt_tool to use")
    parser.add_argument("--ms", type=float, help="time axis length in ms (default: the longest run)")
    args = parser.parse_args(argv[1:])
    if args.label and len(args.label) != len(args.directories):
        print(f"timeline.py: {len(args.label)} --label for {len(args.directories)} directories", file=sys.stderr)
        return 2
    labels = args.label or args.directories
    target = args.output or os.path.join(args.directories[0], "timeline.png")
    try:
        panels = []
        for directory, label in zip(args.directories, labels):
            tasks = read_tasks(tasks_file(directory, args.fxt_tool))
            panels.append({"tasks": tasks, "summary": summary(label, tasks)})
        draw(panels, target, args.ms)
    except (TraceError, OSError) as error:
        print(f"timeline.py: {error}", file=sys.stderr)
        return 1
    print(f"{'run':<24} {'span ms':>9} {'busy':>6}  time per kind (ms, tasks)")
    for p in panels:
        s = p["summary"]
        mean_busy = sum(s["busy"].values()) / (s["span"] * len(s["workers"]))
        kinds = ", ".join(f"{k} {t:.1f} ({c})" for k, (c, t) in sorted(s["by_kind"].items(), key=lambda i: -i[1][1]))
        print(f"{s['label']:<24} {s['span']:>9.1f} {100 * mean_busy:>5.0f}%  {kinds}")
    print(f"timeline: {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
