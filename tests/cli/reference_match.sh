# --reference-match, --reference-scale and the reference's sanity checks (issue 42 items 2-3), on
# data/bend_cylinder.glb (625 file vertices, 544 welded) and neutrals written from its bind mesh
# by write_neutral.py and reference_match.py (their own readers, not rigscope's):
# - the modeller's welded neutral (544 vertices) pairs by index with the welded vertices and gives
#   the tension of no reference, byte for byte (its positions are the bind positions exactly);
# - a neutral in a shuffled vertex order is refused by index (rest T far from 1 nearly
#   everywhere), recovers the identity by position (byte for byte again), and only warns with an
#   explicit --reference-match index;
# - a neutral in centimetres is refused with the units hint; --reference-scale 0.01 gives T = 1
#   at the bind frame within 1e-5 (x100 then x0.01 rounds each coordinate once or twice in float;
#   1e-5 relative is a hundred times that, and a hundred times below the 1% a wrong scale shows);
# - a neutral with one point moved by 1% of the diagonal does not pair by position: refused with
#   the count and the tolerance that would pair all.
. "$(dirname "$0")/common.bash"

GLB=data/bend_cylinder.glb
python3 tests/cli/write_neutral.py "$GLB" "$WORK/n" >/dev/null || { echo "FAIL: write_neutral.py"; exit 1; }
python3 tests/cli/reference_match.py "$WORK/n/ref.obj" "$WORK/n" >/dev/null || { echo "FAIL: reference_match.py"; exit 1; }
expect 0 "tension without a reference" -- "$RIGSCOPE" -q tension "$GLB" --format csv -o "$WORK/base.csv"

expect 0 "a welded neutral (544 vertices) pairs by index" -- "$RIGSCOPE" -q tension "$GLB" --reference "$WORK/n/welded.obj" --format csv -o "$WORK/welded.csv"
check "the welded neutral gives the tension of no reference, byte for byte" -- cmp -s "$WORK/base.csv" "$WORK/welded.csv"

rm -f "$WORK/o.csv"
expect 5 "a shuffled neutral is refused by index" -- "$RIGSCOPE" -q tension "$GLB" --reference "$WORK/n/permuted.obj" --format csv -o "$WORK/o.csv"
check "the refusal names the file and --reference-match position" -- grep -q "permuted.obj.*another order.*--reference-match position" "$WORK/err"
check "the refusal is one line" -- one_line_naming permuted.obj
check "no output after the refusal" -- test ! -e "$WORK/o.csv"
expect 0 "a shuffled neutral pairs by position" -- "$RIGSCOPE" -q tension "$GLB" --reference "$WORK/n/permuted.obj" --reference-match position --format csv -o "$WORK/perm.csv"
check "position recovers the identity pairing: the tension of no reference, byte for byte" -- cmp -s "$WORK/base.csv" "$WORK/perm.csv"
expect 0 "an explicit --reference-match index goes on" -- "$RIGSCOPE" tension "$GLB" --reference "$WORK/n/permuted.obj" --reference-match index --format csv -o "$WORK/forced.csv"
check "with a warning naming the suspect order" -- grep -q "warning.*another order" "$WORK/err"

rm -f "$WORK/o.csv"
expect 5 "a centimetre neutral is refused" -- "$RIGSCOPE" -q tension "$GLB" --reference "$WORK/n/cm.obj" --format csv -o "$WORK/o.csv"
check "with the units hint and the scale that undoes it" -- grep -q "cm.obj.*100x.*centimetres against metres.*--reference-scale 0.01" "$WORK/err"
check "no output after the refusal" -- test ! -e "$WORK/o.csv"
expect 0 "--reference-scale 0.01 takes it" -- "$RIGSCOPE" -q tension "$GLB" --reference "$WORK/n/cm.obj" --reference-scale 0.01 --format csv -o "$WORK/cm.csv"
check "T = 1 at the bind frame on every vertex" -- python3 - "$WORK/cm.csv" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["frame"] == "1"]
bad = [r for r in rows if abs(float(r["t"]) - 1) > 1e-5]
print(len(rows), "vertices,", len(bad), "off")
sys.exit(0 if rows and not bad else 1)
PY

expect 5 "a neutral with a point moved by 1% does not pair by position" -- "$RIGSCOPE" -q tension "$GLB" --reference "$WORK/n/moved.obj" --reference-match position --format csv -o "$WORK/o.csv"
check "the refusal counts the unpaired and gives the tolerance that pairs all" -- grep -q "moved.obj.*2 vertices of the two left unpaired.*all would pair within" "$WORK/err"

expect 2 "--reference-scale without --reference is a usage error" -- "$RIGSCOPE" -q tension "$GLB" --reference-scale 0.01 -o "$WORK/o.csv"
expect 2 "--reference-match other is a usage error" -- "$RIGSCOPE" -q tension "$GLB" --reference "$WORK/n/ref.obj" --reference-match nearest -o "$WORK/o.csv"
finish
