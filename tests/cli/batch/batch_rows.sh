#!/usr/bin/env bash
# What a batch says about each file (issue 57, item 6): a rig name in the library whose symlink
# leads nowhere is said, not skipped silently; `--reference '{dir}/{stem}.obj'` is each file's own
# neutral; a file's refusal of --frames or --vertices names the file; a summary row that says
# fail says why (the line of the file's own text that gave the verdict).
. "$(dirname "$0")/../common.bash"

BEND=data/bend_cylinder.glb
LIB=$WORK/lib
mkdir -p "$LIB/sub"
cp "$BEND" "$LIB/a.glb"
cp "$BEND" "$LIB/sub/b.glb"
ln -s "$WORK/gone.glb" "$LIB/dead.glb"
# Neutrals of the bind mesh (write_neutral.py reads the glb itself): a's exact, b's in centimetres.
python3 tests/cli/write_neutral.py "$BEND" "$WORK/n" >/dev/null || { echo "FAIL: write_neutral.py"; exit 1; }
cp "$WORK/n/ref.obj" "$LIB/a.obj"
python3 - "$WORK/n/ref.obj" "$LIB/sub/b.obj" <<'PY'
import sys
out = open(sys.argv[2], "w")
for line in open(sys.argv[1]):
    p = line.split()
    out.write("v %r %r %r\n" % tuple(float(c) * 100 for c in p[1:4]) if p and p[0] == "v" else line)
PY

# --- a broken link in the folder: said, and the batch holds the other files ---------------------
expect 1 "check of the folder" -- "$RIGSCOPE" check "$LIB" --max-stretch 0.99 --summary "$WORK/s.csv"
check "the broken link is named on stderr, with where it points" -- grep -q "dead.glb: skipped: a symbolic link to '$WORK/gone.glb', which does not exist" "$WORK/err"
check "the two files are checked" -- grep -qx "batch: 2 files: 2 fail" "$WORK/err"

# --- a fail row says why: the limit line of the file's own text -----------------------------------
expect 1 "check a.glb alone" -- "$RIGSCOPE" check "$LIB/a.glb" --max-stretch 0.99
why=$(grep "^stretch limit T < 0.99: " "$WORK/out")
check "the single run names the limit past (the oracle's line)" -- test -n "$why"
check "the summary's fail rows carry that line as their message" -- python3 - "$WORK/s.csv" "$why" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["file"] for r in rows] == ["a.glb", "sub/b.glb"], [r["file"] for r in rows]
for r in rows:
    assert r["status"] == "fail" and r["message"] == sys.argv[2], (r["status"], r["message"], sys.argv[2])
PY
expect 1 "one file with --summary s.json" -- "$RIGSCOPE" -q check "$LIB/a.glb" --max-stretch 0.99 --summary "$WORK/s1.json"
check "JSON summary: the fail row has a message" -- python3 -c '
import json, sys
(f,) = json.load(open(sys.argv[1]))["files"]
assert f["status"] == "fail" and f["message"] == sys.argv[2], f' "$WORK/s1.json" "$why"
mkdir -p "$WORK/new"
python3 tests/cli/swap_weights.py "$BEND" "$WORK/new/a.glb" 37 || exit 1
expect 1 "diff of a pair past --max-displacement" -- "$RIGSCOPE" diff "$LIB/a.glb" --against "$WORK/new" --max-displacement 0.001 \
    --summary "$WORK/d.csv"
expect 1 "the same pair alone" -- "$RIGSCOPE" diff "$LIB/a.glb" "$WORK/new/a.glb" --max-displacement 0.001
dwhy=$(grep -E "^limit (displacement|seam torn).*: [1-9]" "$WORK/out" | paste -sd ';' | sed 's/;/; /g')
check "the single diff names what failed" -- test -n "$dwhy"
check "the diff row's message is the lines that failed it" -- python3 - "$WORK/d.csv" "$dwhy" <<'PY'
import csv, sys
(r,) = list(csv.DictReader(open(sys.argv[1])))
assert r["status"] == "fail" and r["message"] == sys.argv[2], (r["message"], sys.argv[2])
PY

# --- --reference with placeholders: each file's own neutral --------------------------------------
expect 5 "check with --reference '{dir}/{stem}.obj'" -- "$RIGSCOPE" check "$LIB" --max-stretch 0.5 --max-compress 3 \
    --reference '{dir}/{stem}.obj' --summary "$WORK/r.csv"
check "a.glb took a.obj (its exact neutral: pass) and sub/b.glb took sub/b.obj (centimetres: refused naming it)" -- \
    python3 - "$WORK/r.csv" "$LIB" <<'PY'
import csv, sys
rows = {r["file"]: r for r in csv.DictReader(open(sys.argv[1]))}
a, b = rows["a.glb"], rows["sub/b.glb"]
assert a["status"] == "pass", a
assert b["status"] == "error" and b["exit_code"] == "5", b
assert sys.argv[2] + "/sub/b.obj: mesh 'Cylinder' is 100x the size" in b["message"] and "--reference-scale 0.01" in b["message"], b["message"]
PY
expect 0 "a.glb with its neutral alone" -- "$RIGSCOPE" -q tension "$LIB/a.glb" --reference "$LIB/a.obj" --format csv -o "$WORK/a_ref.csv"
expect 0 "a batch of a.glb with '{dir}/{stem}.obj'" -- "$RIGSCOPE" -q tension "$LIB/a.glb" --reference '{dir}/{stem}.obj' \
    --summary "$WORK/t.csv" -o "$WORK/out_{stem}.csv"
check "the batch's map is the single run's with a.obj, byte for byte" -- cmp -s "$WORK/a_ref.csv" "$WORK/out_a.csv"

# --- a file's refusal of an option names the file --------------------------------------------------
expect 2 "check --frames past the clip over the folder" -- "$RIGSCOPE" check "$LIB" --max-stretch 0.5 --frames 1..500 --summary "$WORK/f.csv"
check "each file's --frames message names it" -- python3 - "$WORK/f.csv" "$LIB" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 2
for r in rows:
    assert r["message"].startswith(sys.argv[2] + "/" + r["file"] + ": ") and "--frames" in r["message"], r["message"]
PY
check "stderr: each file's line names it" -- test "$(grep -c "^rigscope: not checked: $LIB/.*--frames" "$WORK/err")" -eq 2
expect 2 "tension --vertices past the mesh over the folder" -- "$RIGSCOPE" tension "$LIB" --vertices 700 -o "$WORK/v/{stem}.csv" \
    --summary "$WORK/v.csv"
check "each file's --vertices message names it" -- python3 - "$WORK/v.csv" "$LIB" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 2
for r in rows:
    assert r["message"].startswith(sys.argv[2] + "/" + r["file"] + ": ") and "--vertices" in r["message"], r["message"]
PY

finish
