#!/usr/bin/python3
"""Where a traced run's time went, phase by phase: for each trace directory
(an app's --trace DIR, converted by scripts/timeline.py or starpu_fxt_tool,
so DIR/tasks.rec exists), one line per task name, MPI rank and worker: how
many tasks, the first start and last end in ms from the run's first submit,
and the busy time; then, per worker that ran stage tasks, the idle gaps
between its consecutive tasks (sum, median, 90th percentile). Under MPI the
ranks' clocks are not aligned: compare times within one rank only.

    scripts/trace_phases.py trace-1gpu trace-2gpu
"""
import collections
import os
import statistics
import sys


def records(path):
    record = {}
    for line in open(path):
        line = line.rstrip("\n")
        if not line:
            if record:
                yield record
            record = {}
            continue
        key, _, value = line.partition(": ")
        record[key] = value
    if record:
        yield record


def kind(name):
    # Stage and publish tasks are named after their tile ("tile 0x1").
    return "tile" if name.startswith("tile ") else name


def main(directories):
    for directory in directories:
        if not os.path.isfile(directory + "/tasks.rec"):
            sys.exit(f"trace_phases.py: no tasks.rec in '{directory}' (convert the trace with scripts/timeline.py "
                     "or starpu_fxt_tool first)")
        tasks = [t for t in records(directory + "/tasks.rec") if "StartTime" in t]
        if not tasks:
            print(f"== {directory}: no tasks")
            continue
        t0 = min(float(t["SubmitTime"]) for t in tasks)
        print(f"== {directory} (ms from the first submit)")
        groups = collections.defaultdict(list)
        for t in tasks:
            groups[(kind(t["Name"]), t.get("MPIRank", "-"), t["WorkerId"])].append(
                (float(t["StartTime"]) - t0, float(t["EndTime"]) - t0))
        print(f"{'kind':8} {'rank':>4} {'worker':>6} {'tasks':>5} {'first start':>11} {'last end':>9} {'busy':>8}")
        for key in sorted(groups, key=lambda k: min(s for s, _ in groups[k])):
            spans = sorted(groups[key])
            busy = sum(e - s for s, e in spans)
            print(f"{key[0]:8} {key[1]:>4} {key[2]:>6} {len(spans):5} {spans[0][0]:11.1f} {spans[-1][1]:9.1f} {busy:8.1f}")
        for (name, rank, worker), spans in sorted(groups.items()):
            if name != "tile" or len(spans) < 3:
                continue
            spans.sort()
            gaps = sorted(max(0.0, b[0] - a[1]) for a, b in zip(spans, spans[1:]))
            print(f"gaps rank {rank} worker {worker}: {len(gaps)} gaps, sum {sum(gaps):.1f} ms, "
                  f"median {statistics.median(gaps):.3f}, p90 {gaps[int(0.9 * (len(gaps) - 1))]:.3f}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: trace_phases.py DIR [DIR ...] (each with tasks.rec)")
    main(sys.argv[1:])
