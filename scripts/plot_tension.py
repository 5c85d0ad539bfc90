#!/usr/bin/python3
"""T-value plot from `rigscope tension --format json --vertices ...`: T against frame, one line per
selected vertex, with the stretch (t_s) and compress (t_c) thresholds the run used.

usage: scripts/plot_tension.py RUN.json OUT.png [--title TEXT]
Needs Debian's python3-matplotlib (scripts/setup.sh installs it)."""
import argparse
import json
import sys

import matplotlib

matplotlib.use("Agg")  # files only: farm machines have no display
import matplotlib.pyplot as plt


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run", help="JSON written by rigscope tension --format json --vertices LIST")
    ap.add_argument("out", help="PNG to write")
    ap.add_argument("--title", default=None)
    a = ap.parse_args()
    with open(a.run) as f:
        run = json.load(f)
    series = run.get("vertices", [])
    if not series:
        sys.exit(f"{a.run}: no vertex series (run tension with --vertices)")
    frames = [fr["frame"] for fr in run["frames"]]
    x = [f if isinstance(f, (int, float)) else 0 for f in frames]
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    for s in series:
        ax.plot(x, s["t"], label=f"{s['mesh']} vertex {s['vertex']}")
    ax.axhline(1.0, color="0.6", lw=0.8)
    rng = run["range"]
    ax.axhline(rng["t_s"], color="tab:green", ls="--", lw=0.8, label=f"t_s = {rng['t_s']:.3f} (stretch full)")
    ax.axhline(rng["t_c"], color="tab:red", ls="--", lw=0.8, label=f"t_c = {rng['t_c']:.3f} (compress full)")
    ax.set_xlabel("frame")
    ax.set_ylabel("T (rest / deformed mean edge length)")
    ax.set_title(a.title or f"Tension of {run['input'].split('/')[-1]}")
    ax.legend(loc="best", fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(a.out)


if __name__ == "__main__":
    main()
