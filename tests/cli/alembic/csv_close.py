"""Compares two rigscope CSVs (deform's x,y,z or tension's t,compress,stretch) row by row: the same
frames, times and vertex ids, every value within TOL (the mesh column may differ: an archive's
object name is not the glb's mesh name). Prints the first differences; exit 1 when there are any.

    csv_close.py A.csv B.csv TOL"""
import csv
import sys


def main():
    a, b, tol = sys.argv[1], sys.argv[2], float(sys.argv[3])
    ra, rb = list(csv.DictReader(open(a))), list(csv.DictReader(open(b)))
    if len(ra) != len(rb) or not ra:
        print(f"{a}: {len(ra)} rows, {b}: {len(rb)}")
        return 1
    cols = [c for c in ("x", "y", "z", "t", "compress", "stretch") if c in ra[0]]
    bad, worst = 0, 0.0
    for x, y in zip(ra, rb):
        if x["frame"] != y["frame"] or x["vertex"] != y["vertex"] or abs(float(x["time"]) - float(y["time"])) > 1e-9:
            print(f"row frame {x['frame']} vertex {x['vertex']} against frame {y['frame']} vertex {y['vertex']}")
            return 1
        for c in cols:
            d = abs(float(x[c]) - float(y[c]))
            worst = max(worst, d)
            if d > tol:
                bad += 1
                if bad <= 5:
                    print(f"frame {x['frame']} vertex {x['vertex']} {c}: {x[c]} against {y[c]}")
    if bad:
        print(f"{bad} values differ by more than {tol} (largest {worst:.3g})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
