#!/usr/bin/python3
"""(Debian's python3 with python3-matplotlib, which scripts/setup.sh installs.)

Plots a --sweep-height CSV: measured and predicted time per step against the
trapezoid height, the height the model chose and the best measured one marked.

    scripts/plot_height_sweep.py jacobi2d-height-sweep.csv jacobi2d-height-sweep.png
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(argv):
    if len(argv) not in (2, 3):
        print("usage: plot_height_sweep.py SWEEP.csv [OUT.png]", file=sys.stderr)
        return 2
    source = argv[1]
    target = argv[2] if len(argv) == 3 else source.rsplit(".", 1)[0] + ".png"
    try:
        with open(source, newline="") as f:
            rows = list(csv.DictReader(f))
        heights = [int(r["height"]) for r in rows]
        measured = [1e3 * float(r["measured_seconds_per_step"]) for r in rows]
        predicted = [1e3 * float(r["predicted_seconds_per_step"]) for r in rows]
        chosen = [int(r["height"]) for r in rows if r["chosen"] == "1"]
        best = [int(r["height"]) for r in rows if r["best"] == "1"]
    except (OSError, KeyError, ValueError) as error:
        print(f"plot_height_sweep: cannot read '{source}': {error}", file=sys.stderr)
        return 1
    if not rows:
        print(f"plot_height_sweep: '{source}' has no rows", file=sys.stderr)
        return 1
    fig, ax = plt.subplots(figsize=(7, 4.2))
    ax.plot(heights, measured, "o-", label="measured")
    ax.plot(heights, predicted, "s--", label="predicted (model)")
    for h in chosen:
        ax.axvline(h, color="tab:green", linestyle=":", label=f"chosen h = {h}")
    for h in best:
        ax.plot([h], [measured[heights.index(h)]], "*", markersize=16, color="tab:red", label=f"best measured h = {h}")
    ax.set_xlabel("trapezoid height h (steps per stage)")
    ax.set_ylabel("time per step (ms)")
    ax.set_title(source.rsplit("/", 1)[-1])
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(target, dpi=110)
    print(target)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
