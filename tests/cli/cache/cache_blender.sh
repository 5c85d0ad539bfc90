# Point caches against Blender (issue 42's oracle): Blender 3.4's Mesh Cache modifier read
# tests/cache/bend_40_49.pc2 and .mdd (bend_cylinder's frames 40-49) on the bind mesh's OBJ and
# gave tests/cache/blender_pc2.csv and blender_mdd.csv (scripts/cache_oracle/make_oracle.sh).
# `rigscope deform --cache` must give the same float32 positions at the same frames, and both
# equal the samples read from the files by struct (cache_blender.py). The PC2's header starts at
# frame 40; Blender shows sample F - Frame Start whatever the header says, so its modifier was
# set to Frame Start 40; the MDD's times start at 0, and so do both frame numberings.
. "$(dirname "$0")/../common.bash"

d=tests/cache
expect 0 "deform with the PC2" -- "$RIGSCOPE" -q deform "$d/bend_cylinder_bind.obj" --cache "$d/bend_40_49.pc2" --frames 40,41,44,49 --format csv -o "$WORK/pc2.csv"
check "PC2: Blender's positions and the file's samples, exactly" -- python3 tests/cli/cache/cache_blender.py "$WORK/pc2.csv" "$d/blender_pc2.csv" "$d/bend_40_49.pc2" PC2 40
expect 0 "deform with the MDD" -- "$RIGSCOPE" -q deform "$d/bend_cylinder_bind.obj" --cache "$d/bend_40_49.mdd" --frames 0,1,4,9 --format csv -o "$WORK/mdd.csv"
check "MDD: Blender's positions and the file's samples, exactly" -- python3 tests/cli/cache/cache_blender.py "$WORK/mdd.csv" "$d/blender_mdd.csv" "$d/bend_40_49.mdd" MDD 0
# Between samples Blender blends linearly (Interpolation: Linear, its default), as rigscope does:
# the MDD's samples are 1/24 s apart, so frame 1 at --fps 48 (1/48 s) is halfway between its
# samples 0 and 1. (A PC2 counts frames, not seconds: another --fps renumbers nothing.)
expect 0 "deform between two samples" -- "$RIGSCOPE" -q deform "$d/bend_cylinder_bind.obj" --cache "$d/bend_40_49.mdd" --fps 48 --frames 1 --format csv -o "$WORK/half.csv"
check "halfway between samples: the mean of the two within float rounding (2e-7 of the unit size)" -- python3 - "$WORK/half.csv" "$d/blender_mdd.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
b = {}
for r in csv.DictReader(open(sys.argv[2])):
    b.setdefault(int(r["frame"]), []).append([float(r[c]) for c in "xyz"])
worst = max(abs(float(r[c]) - (b[0][i][k] + b[1][i][k]) / 2) for i, r in enumerate(rows) for k, c in enumerate("xyz"))
print("worst", worst)
sys.exit(0 if rows and worst <= 2e-7 else 1)
PY
finish
