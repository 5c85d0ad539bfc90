# Point caches as animation (issue 42 item 4): bend_cylinder's deformation, as `rigscope deform`
# writes it (CSV, shortest round-trip decimals: the float bits), written by write_cache.py from
# the formats' published layouts (not rigscope's readers) as PC2, MDD (Blender's exporter's
# layout), a numbered OBJ sequence and a PC2 of the welded vertices; the base mesh is
# write_neutral.py's OBJ of the bind mesh. The positions a cache gives are the skin's bits, so
# tension from OBJ + cache equals tension of the skinned glb byte for byte (PC2 and the
# sequence, whose frame numbers are the glb's); MDD's times start at 0 (frame / fps, as Blender
# writes them), so its frames are numbered from 0 and everything after the frame columns is
# equal. Bad caches are refused with one line naming the file and no output.
. "$(dirname "$0")/../common.bash"

GLB=data/bend_cylinder.glb
python3 tests/cli/write_neutral.py "$GLB" "$WORK/n" >/dev/null || { echo "FAIL: write_neutral.py"; exit 1; }
expect 0 "deform of the glb" -- "$RIGSCOPE" -q deform "$GLB" --format csv -o "$WORK/deform.csv"
python3 tests/cli/cache/write_cache.py "$WORK/deform.csv" 24 "$WORK/c" >/dev/null || { echo "FAIL: write_cache.py"; exit 1; }
expect 0 "tension of the skinned glb" -- "$RIGSCOPE" -q tension "$GLB" --format csv -o "$WORK/base.csv"

for c in cloth.pc2 seq/cloth_0001.obj seq/cloth_0045.obj; do
    expect 0 "tension of the OBJ with --cache $c" -- "$RIGSCOPE" -q tension "$WORK/n/ref.obj" --cache "$WORK/c/$c" --format csv -o "$WORK/t.csv"
    check "$c: the tension of the skinned glb, byte for byte" -- cmp -s "$WORK/base.csv" "$WORK/t.csv"
done
# A sequence named by a pattern: one run of '#' for the frame number, anywhere in the name, as
# many digits as '#'s zero-padded or more without a leading zero (docs/cache_notes.md).
expect 0 "tension with --cache seq/cloth_####.obj" -- "$RIGSCOPE" -q tension "$WORK/n/ref.obj" --cache "$WORK/c/seq/cloth_####.obj" --format csv -o "$WORK/t.csv"
check "cloth_####.obj: the tension of the skinned glb, byte for byte" -- cmp -s "$WORK/base.csv" "$WORK/t.csv"
mkdir -p "$WORK/c/mid" "$WORK/c/wide"
for f in "$WORK"/c/seq/cloth_*.obj; do
    n=${f##*_}; n=${n%.obj}
    cp "$f" "$WORK/c/mid/sim.$n.cloth.obj"
    cp "$f" "$WORK/c/wide/cloth_$((10#$n + 50)).obj"  # frames 51 to 141: past two digits at 100
done
cp "$WORK/c/seq/cloth_0001.obj" "$WORK/c/mid/sim.0001.other.obj"  # another sequence of the folder
expect 0 "the '#'s inside the name (sim.####.cloth.obj)" -- "$RIGSCOPE" -q tension "$WORK/n/ref.obj" --cache "$WORK/c/mid/sim.####.cloth.obj" --format csv -o "$WORK/t.csv"
check "sim.####.cloth.obj: the same tension, byte for byte" -- cmp -s "$WORK/base.csv" "$WORK/t.csv"
expect 0 "cloth_##.obj over frames 51 to 141" -- "$RIGSCOPE" -q tension "$WORK/n/ref.obj" --cache "$WORK/c/wide/cloth_##.obj" --format csv -o "$WORK/wide.csv"
check "cloth_##.obj: frames 100 and up are in (3 digits past the padding)" -- grep -q "^141," "$WORK/wide.csv"
check "cloth_##.obj: the same T, compress and stretch on every row" -- cmp -s <(cut -d, -f4- "$WORK/base.csv") <(cut -d, -f4- "$WORK/wide.csv")
rm -f "$WORK/o.csv"
expect 3 "cloth_###.obj: the folder's names have 4 digits, zero-padded" -- "$RIGSCOPE" -q tension "$WORK/n/ref.obj" --cache "$WORK/c/seq/cloth_###.obj" --format csv -o "$WORK/o.csv"
check "a pattern matching no file: one line naming it" -- one_line_naming "seq/cloth_###.obj: no file in .*seq matches the pattern (cloth_, then a frame number of 3 digits or more"
check "no output" -- test ! -e "$WORK/o.csv"
expect 3 "two runs of '#'" -- "$RIGSCOPE" -q tension "$WORK/n/ref.obj" --cache "$WORK/c/seq/cloth_##_##.obj" --format csv -o "$WORK/o.csv"
check "two runs of '#': one line saying so" -- one_line_naming "cloth_##_##.obj: a frame pattern has one run of '#'"
expect 3 "a pattern in a missing folder" -- "$RIGSCOPE" -q tension "$WORK/n/ref.obj" --cache "$WORK/c/none/cloth_####.obj" --format csv -o "$WORK/o.csv"
check "a missing folder: one line naming the pattern" -- one_line_naming "none/cloth_####.obj: its folder cannot be listed"
expect 0 "tension of the OBJ with --cache cloth.mdd" -- "$RIGSCOPE" -q tension "$WORK/n/ref.obj" --cache "$WORK/c/cloth.mdd" --format csv -o "$WORK/mdd.csv"
check "MDD: the same T, compress and stretch on every row" -- cmp -s <(cut -d, -f4- "$WORK/base.csv") <(cut -d, -f4- "$WORK/mdd.csv")
check "MDD: frames numbered from 0, as Blender's times are" -- grep -q "^0,0,Cylinder,0," "$WORK/mdd.csv"
expect 0 "the skinned glb with --cache" -- "$RIGSCOPE" tension "$GLB" --cache "$WORK/c/cloth.pc2" --format csv -o "$WORK/skin.csv"
check "warns that the skin is ignored" -- grep -q "warning.*has a skin.*skin is ignored" "$WORK/err"
check "and gives the same tension" -- cmp -s "$WORK/base.csv" "$WORK/skin.csv"
expect 0 "a cache of the 544 welded vertices on the 625-vertex glb" -- "$RIGSCOPE" -q tension "$GLB" --cache "$WORK/c/welded.pc2" --format csv -o "$WORK/w.csv"
check "pairs by welded vertex: the same tension" -- cmp -s "$WORK/base.csv" "$WORK/w.csv"

# Every per-frame verb takes it.
expect 0 "deform with --cache" -- "$RIGSCOPE" -q deform "$WORK/n/ref.obj" --cache "$WORK/c/cloth.pc2" --format csv -o "$WORK/d2.csv"
check "deform gives the cached positions: the glb's deform" -- cmp -s "$WORK/deform.csv" "$WORK/d2.csv"
expect 1 "check of the glb: the bend compresses past T < 0.9" -- "$RIGSCOPE" -q check "$GLB" --max-stretch 0.9
cp "$WORK/out" "$WORK/check_glb.txt"
expect 1 "check with --cache judges the same frames" -- "$RIGSCOPE" -q check "$WORK/n/ref.obj" --cache "$WORK/c/cloth.pc2" --max-stretch 0.9
check "and finds the same vertices, frames and T" -- cmp -s "$WORK/check_glb.txt" "$WORK/out"
expect 0 "report with --cache" -- "$RIGSCOPE" -q report "$WORK/n/ref.obj" --cache "$WORK/c/cloth.pc2" -o "$WORK/r.html"
check "the report has frames" -- grep -q "Cylinder" "$WORK/r.html"

expect 0 "diff with --cache (both files take it)" -- "$RIGSCOPE" -q diff "$WORK/n/ref.obj" "$GLB" --cache "$WORK/c/cloth.pc2"
check "the same cache on the same surface: no vertex moved" -- grep -q "no vertex moved" "$WORK/out"

# Corpus rigs: each file's own deformation as a PC2 on the file itself (the skin then ignored)
# gives its tension byte for byte; arnaud.fbx has no clip, so its --rom sweep is the motion.
CORPUS=${RIGSCOPE_CORPUS:-../shared/corpus}
for spec in "khronos/cesium_man.gltf" "khronos/rigged_simple.gltf" "pab/arnaud.fbx --rom"; do
    set -- $spec
    f=$CORPUS/$1; shift
    name=$(basename "$f")
    expect 0 "$name: deform" -- "$RIGSCOPE" -q deform "$f" "$@" --format csv -o "$WORK/rig.csv"
    rm -rf "$WORK/rc"
    python3 tests/cli/cache/write_cache.py "$WORK/rig.csv" 24 "$WORK/rc" >/dev/null || { echo "FAIL: write_cache.py $name"; failures=$((failures + 1)); continue; }
    expect 0 "$name: tension" -- "$RIGSCOPE" -q tension "$f" "$@" --format csv -o "$WORK/rig_t.csv"
    expect 0 "$name: tension from its PC2" -- "$RIGSCOPE" -q tension "$f" --cache "$WORK/rc/cloth.pc2" --format csv -o "$WORK/rig_c.csv"
    check "$name: the same tension, byte for byte" -- cmp -s "$WORK/rig_t.csv" "$WORK/rig_c.csv"
done

# Bad caches: one line naming the file, no output.
c=$WORK/c
head -c 5000 "$c/cloth.pc2" >"$c/truncated.pc2"
python3 - "$c" <<'PY'
import struct, sys
d = sys.argv[1]
data = bytearray(open(f"{d}/cloth.pc2", "rb").read())
big = bytearray(data); struct.pack_into("<i", big, 28, 1000000000); open(f"{d}/count.pc2", "wb").write(big)
nan = bytearray(data); struct.pack_into("<f", nan, 32 + 12 * 625 * 3 + 4, float("nan")); open(f"{d}/nan.pc2", "wb").write(nan)
short = bytearray(data[:32]); struct.pack_into("<i", short, 16, 600); short += data[32:32 + 12 * 600 * 91]
open(f"{d}/points.pc2", "wb").write(short)
m = bytearray(open(f"{d}/cloth.mdd", "rb").read()); struct.pack_into(">i", m, 0, 2000000000); open(f"{d}/count.mdd", "wb").write(m)
open(f"{d}/pc2_named.mdd", "wb").write(data)
PY
rm "$c/seq/cloth_0050.obj"
for case in "truncated.pc2 3 truncated" "count.pc2 3 1000000000 samples" "nan.pc2 3 sample 3 (at 0.166667 s), point 0 is not a finite" \
            "count.mdd 3 count.mdd" "pc2_named.mdd 3 pc2_named.mdd: this is a PC2 file" "points.pc2 5 600 points" "seq/cloth_0001.obj 3 cloth_0050.obj is missing" \
            "seq/cloth_####.obj 3 cloth_0050.obj is missing"; do
    set -- $case
    f=$1 code=$2; shift 2
    rm -f "$WORK/o.csv"
    expect "$code" "a bad cache ($f) is refused" -- "$RIGSCOPE" -q tension "$WORK/n/ref.obj" --cache "$c/$f" --format csv -o "$WORK/o.csv"
    check "$f: one line naming the file and the problem" -- one_line_naming "$*"
    check "$f: no output" -- test ! -e "$WORK/o.csv"
done
# A header whose counts fit its file (sparse here: no disk used) but whose per-sample table does
# not fit --max-memory is refused before the table is allocated (10^8 samples of one point: 763
# MiB of PC2 times, 1144 MiB of MDD's stored and converted times).
python3 - "$c" <<'PY'
import struct, sys
d, n = sys.argv[1], 100_000_000
with open(f"{d}/huge.pc2", "wb") as f:
    f.write(b"POINTCACHE2\0" + struct.pack("<iiffi", 1, 1, 1.0, 1.0, n))
    f.truncate(32 + 12 * n)
with open(f"{d}/huge.mdd", "wb") as f:
    f.write(struct.pack(">2i", n, 1))
    f.truncate(8 + 4 * n + 12 * n)
PY
for f in huge.pc2:763 huge.mdd:1144; do
    mib=${f#*:} f=${f%:*}
    rm -f "$WORK/o.csv"
    expect 3 "$f: 10^8 samples, a table past --max-memory 256" -- /usr/bin/time -f "%M" -o "$WORK/rss" "$RIGSCOPE" -q tension "$WORK/n/ref.obj" --cache "$c/$f" --max-memory 256 --format csv -o "$WORK/o.csv"
    check "$f: one line naming the file, the table's size and the budget" -- \
        one_line_naming "$f: the times of 100000000 samples would take $mib MiB, past the memory limit of 256 MiB"
    check "$f: refused before the table was allocated (peak RSS under 200 MB)" -- test "$(tail -n 1 "$WORK/rss")" -lt 200000
    check "$f: no output" -- test ! -e "$WORK/o.csv"
done
# A cache of another point count names both counts the mesh would take (as the reference's does).
expect 5 "a 600-point cache on the 625-vertex glb (544 welded)" -- "$RIGSCOPE" -q tension "$GLB" --cache "$c/points.pc2" --format csv -o "$WORK/o.csv"
check "the mismatch names the cache, the file, the mesh and both counts" -- \
    one_line_naming "points.pc2: has 600 points, $GLB mesh 'Cylinder' has 625 vertices (544 welded): a cache gives a point per file vertex or per welded vertex"
expect 5 "with --weld off" -- "$RIGSCOPE" -q tension "$GLB" --weld off --cache "$c/points.pc2" --format csv -o "$WORK/o.csv"
check "no weld: the file vertices alone" -- one_line_naming "$GLB mesh 'Cylinder' has 625 vertices: a cache gives"
expect 2 "--cache with --rom is a usage error" -- "$RIGSCOPE" -q tension "$GLB" --cache "$c/cloth.pc2" --rom -o "$WORK/o.csv"
expect 2 "an empty --cache is a usage error" -- "$RIGSCOPE" -q tension "$GLB" --cache "" -o "$WORK/o.csv"
finish
