#!/usr/bin/python3
"""The three measures side by side on a cylinder-like mesh: compress and stretch from --measure
edge, area and principal at one frame, drawn on the unrolled rest surface (angle around the y
axis against height), from rigscope's own CSV output.

usage: scripts/plot_measures.py RIGSCOPE FILE FRAME OUT.png
   e.g. scripts/plot_measures.py build/rigscope data/bend_cylinder.glb 46 docs/measures_bend_cylinder.png
Needs Debian's python3-matplotlib and python3-numpy (scripts/setup.sh installs them)."""
import csv
import io
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")  # files only: farm machines have no display
import matplotlib.pyplot as plt
import numpy as np


def run(rigscope, *args):
    out = subprocess.run([rigscope, "-q", *args, "-o", "-"], check=True, capture_output=True, text=True).stdout
    rows = list(csv.reader(io.StringIO(out)))
    return rows[0], rows[1:]


def column(header, rows, name):
    i = header.index(name)
    return np.array([float(r[i]) for r in rows])


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    rigscope, path, frame, out = sys.argv[1:]
    h, rest = run(rigscope, "deform", path, "--frames", "bind")
    x, y, z = (column(h, rest, k) for k in "xyz")
    angle = np.degrees(np.arctan2(z, x))
    fig, axes = plt.subplots(2, 3, figsize=(12, 6.5), dpi=100, sharex=True, sharey=True)
    titles = {"edge": "edge (mean edge length)", "area": "area (one-ring area)", "principal": "principal (1/lambda)"}
    for col, measure in enumerate(("edge", "area", "principal")):
        h, rows = run(rigscope, "tension", path, "--frames", frame, "--measure", measure)
        for row, name in enumerate(("compress", "stretch")):
            ax = axes[row][col]
            values = column(h, rows, name)
            sc = ax.scatter(angle, y, c=values, s=14, cmap="magma", vmin=0, vmax=1)
            ax.set_title(f"{name}: {titles[measure]}", fontsize=9)
            if row == 1:
                ax.set_xlabel("angle around y (degrees, rest)")
            if col == 0:
                ax.set_ylabel("height (rest)")
    fig.colorbar(sc, ax=axes, shrink=0.8, label="map value (default remap)")
    fig.suptitle(f"{path.split('/')[-1]}, frame {frame}: the three measures", fontsize=11)
    fig.savefig(out)


if __name__ == "__main__":
    main()
