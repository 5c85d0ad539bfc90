# OBJ and PLY neutrals as --reference (issue 42, first part): the bind mesh of data/bend_cylinder.glb
# written by tests/cli/write_neutral.py (its own glb parser, not rigscope's) as OBJ (1-based,
# negative indices) and PLY (ASCII, binary little- and big-endian). A neutral equal to the bind
# pose gives exactly the tension of no reference; a neutral 1 % larger gives T = 1.01 at rest
# (T is rest length over deformed length, docs/methods.md), so a reader that dropped or garbled
# the reference would show. Broken files are refused with one line naming the file, exit 3.
. "$(dirname "$0")/../common.bash"

GLB=data/bend_cylinder.glb
python3 tests/cli/write_neutral.py "$GLB" "$WORK/n" >/dev/null || { echo "FAIL: write_neutral.py"; exit 1; }

expect 0 "tension without a reference" -- "$RIGSCOPE" -q tension "$GLB" --format csv -o "$WORK/base.csv"
for f in ref.obj ref_negative.obj ref_ascii.ply ref_le.ply ref_be.ply; do
    expect 0 "info reads $f" -- "$RIGSCOPE" info "$WORK/n/$f"
    check "info of $f counts the glb's 625 vertices and 1084 faces" -- grep -q "625 vertices, 544 welded, 1084 faces" "$WORK/out"
    expect 0 "tension with --reference $f" -- "$RIGSCOPE" -q tension "$GLB" --reference "$WORK/n/$f" --format csv -o "$WORK/$f.csv"
    check "a neutral equal to the bind pose ($f) gives the tension of no reference, byte for byte" -- cmp -s "$WORK/base.csv" "$WORK/$f.csv"
done

# 1 % larger: T at the first frame (the bind pose) is 1.01 on every vertex, within float
# rounding of the lengths (1e-5 relative, far below the 1 % the scale makes).
python3 - "$WORK/n/ref.obj" "$WORK/n/big.obj" <<'PY'
import sys
out = []
for line in open(sys.argv[1]):
    if line.startswith("v "):
        x, y, z = (float(c) * 1.01 for c in line.split()[1:])
        line = "v %r %r %r\n" % (x, y, z)
    out.append(line)
open(sys.argv[2], "w").writelines(out)
PY
expect 0 "tension with a 1 % larger neutral" -- "$RIGSCOPE" -q tension "$GLB" --reference "$WORK/n/big.obj" --format csv -o "$WORK/big.csv"
check "T at the bind frame is 1.01 on every vertex" -- python3 - "$WORK/big.csv" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["frame"] == "1"]
bad = [r for r in rows if abs(float(r["t"]) - 1.01) > 1e-5]
print(len(rows), "vertices,", len(bad), "off")
sys.exit(0 if rows and not bad else 1)
PY

# Broken neutrals: exit 3, one line naming the file, no output written.
head -c 3000 "$WORK/n/ref_le.ply" >"$WORK/n/truncated.ply"
sed 's/element vertex 625/element vertex 900000000/' "$WORK/n/ref_le.ply" >"$WORK/n/count.ply"
awk 'NR==1{print "f 1 2 99999"} {print}' "$WORK/n/ref.obj" >"$WORK/n/index.obj"
printf 'ply\nformat binary_middle_endian 1.0\nend_header\n' >"$WORK/n/format.ply"
printf 'v 0 0 0\nv 1 0 0\nv 0 nan 0\nf 1 2 3\n' >"$WORK/n/nan.obj"
for f in truncated.ply count.ply index.obj format.ply nan.obj; do
    rm -f "$WORK/o.csv"
    expect 3 "a broken neutral ($f) is refused" -- "$RIGSCOPE" -q tension "$GLB" --reference "$WORK/n/$f" --format csv -o "$WORK/o.csv"
    check "$f: one line naming the file" -- one_line_naming "$f"
    check "$f: no output" -- test ! -e "$WORK/o.csv"
done
finish
