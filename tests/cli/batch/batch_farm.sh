#!/usr/bin/env bash
# A farm run is one library (issue 57 item 2): each `--task I/N` records the batch's identity
# (every file in order with its size and modification time, this task's files' content hashes,
# the options), and `merge` of the tasks' summaries refuses parts whose library or options
# changed between tasks, naming the first difference, and a file listed twice or never checked.
# The fixtures are made here: a library changed between two tasks in each way a studio's does.
source "$(dirname "$0")/../common.bash"
LIMITS=(--max-stretch 0.5 --max-compress 2)

# new_library DIR: four copies of one rig under distinct names (a.glb ... d.glb).
new_library() {
    rm -rf "$1"
    mkdir -p "$1"
    local n
    for n in a b c d; do cp data/bend_cylinder.glb "$1/$n.glb"; done
}
task() {  # task I DIR SUMMARY [options]: one task of two, its summary as JSON
    local i=$1 dir=$2 summary=$3
    shift 3
    "$RIGSCOPE" -q check "$dir" "${LIMITS[@]}" --task "$i/2" --summary "$summary" "$@" >/dev/null 2>&1
}

# Unchanged between tasks: merged, every file once, each with its content hash (checked against
# FNV-1a 64 computed here from the bytes).
LIB=$WORK/lib
new_library "$LIB"
task 0 "$LIB" "$WORK/u0.json"
task 1 "$LIB" "$WORK/u1.json"
expect 1 "merge of an unchanged library's two tasks (every file fails the limits)" -- "$RIGSCOPE" merge "$WORK/u.json" "$WORK/u1.json" "$WORK/u0.json"
check "merged: 4 files, each once, in the batch's order" -- \
    test "$(python3 -c 'import json,sys; print(*[f["file"] for f in json.load(open(sys.argv[1]))["files"]])' "$WORK/u.json")" = "a.glb b.glb c.glb d.glb"
python3 - "$WORK/u.json" "$LIB" >"$WORK/hashes" <<'PY'
import json, os, sys
def fnv1a64(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"
ident = json.load(open(sys.argv[1]))["identity"]
for f in ident["files"]:
    s = f["stamp"]
    data = open(s["path"], "rb").read()
    st = os.stat(s["path"])
    print(f["file"], s["fnv1a64"] == fnv1a64(data), s["bytes"] == len(data), s["mtime_ns"] == st.st_mtime_ns)
PY
check "merged identity: every file's content hash, size and time as the file has them" -- \
    test "$(grep -c ' True True True$' "$WORK/hashes")" -eq 4
check "a task's own summary hashes only its own files" -- \
    test "$(python3 -c 'import json,sys; print(sum("fnv1a64" in f["stamp"] for f in json.load(open(sys.argv[1]))["identity"]["files"]))' "$WORK/u0.json")" -eq 2

# A file renamed between the tasks: task 1 sees b, d, e (c's new name) where task 0 saw a-d.
new_library "$LIB"
task 0 "$LIB" "$WORK/r0.json"
mv "$LIB/c.glb" "$LIB/e.glb"
task 1 "$LIB" "$WORK/r1.json"
expect 5 "merge refuses a file renamed between tasks" -- "$RIGSCOPE" merge "$WORK/r.csv" "$WORK/r0.json" "$WORK/r1.json"
check "it names the first difference (file 3: e.glb vs c.glb)" -- one_line_naming "file 3 of 4 vs 4: $LIB/d.glb vs $LIB/c.glb"
check "nothing written" -- test ! -e "$WORK/r.csv"

# One file added and one removed: the count is the same, the library is not.
new_library "$LIB"
task 0 "$LIB" "$WORK/a0.json"
rm "$LIB/a.glb"
cp data/bend_cylinder.glb "$LIB/z.glb"
task 1 "$LIB" "$WORK/a1.json"
expect 5 "merge refuses a file added and one removed" -- "$RIGSCOPE" merge "$WORK/a.csv" "$WORK/a0.json" "$WORK/a1.json"
check "it names the first file that differs" -- one_line_naming "file 1 of 4 vs 4: $LIB/b.glb vs $LIB/a.glb"

# A file added only: 5 files vs 4.
new_library "$LIB"
task 0 "$LIB" "$WORK/n0.json"
cp data/bend_cylinder.glb "$LIB/e.glb"
task 1 "$LIB" "$WORK/n1.json"
expect 5 "merge refuses a file added between tasks" -- "$RIGSCOPE" merge "$WORK/n.csv" "$WORK/n0.json" "$WORK/n1.json"
check "it names the added file" -- one_line_naming "e.glb only in"

# A file rewritten (another rig under the same name: its size differs) after task 0 judged it.
new_library "$LIB"
task 0 "$LIB" "$WORK/w0.json"
cp data/joystick_face.glb "$LIB/a.glb"
task 1 "$LIB" "$WORK/w1.json"
expect 5 "merge refuses a file rewritten between tasks" -- "$RIGSCOPE" merge "$WORK/w.csv" "$WORK/w0.json" "$WORK/w1.json"
check "it names the file and both sizes" -- \
    one_line_naming "$LIB/a.glb: $(stat -c %s data/joystick_face.glb) bytes vs $(stat -c %s data/bend_cylinder.glb)"
# Rewritten with the same size (re-exported): its modification time changed.
new_library "$LIB"
touch -d '2020-01-01 00:00:00 UTC' "$LIB"/*.glb
task 0 "$LIB" "$WORK/m0.json"
touch -d '2024-05-06 07:08:09 UTC' "$LIB/d.glb"
task 1 "$LIB" "$WORK/m1.json"
expect 5 "merge refuses a file re-saved between tasks" -- "$RIGSCOPE" merge "$WORK/m.csv" "$WORK/m0.json" "$WORK/m1.json"
check "it names the file and both times" -- one_line_naming "d.glb: modified 2024-05-06T07:08:09.000000000Z vs 2020-01-01T00:00:00.000000000Z"

# Other options in one task: the rows would be judged by two rules.
new_library "$LIB"
task 0 "$LIB" "$WORK/o0.json"
"$RIGSCOPE" -q check "$LIB" --max-stretch 0.9 --max-compress 2 --task 1/2 --summary "$WORK/o1.json" >/dev/null 2>&1
expect 5 "merge refuses tasks run with other options" -- "$RIGSCOPE" merge "$WORK/o.csv" "$WORK/o0.json" "$WORK/o1.json"
check "it names the option and both values" -- one_line_naming "option --max-stretch '0.9' vs '0.5'"

# A file listed twice, a file never checked: parts edited as a broken farm script would leave them.
python3 - "$WORK/u1.json" "$WORK/u0.json" "$WORK/dup1.json" "$WORK/miss1.json" <<'PY'
import json, sys
t1, t0 = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
dup = json.loads(json.dumps(t1)); dup["files"][0] = t0["files"][0]
json.dump(dup, open(sys.argv[3], "w"))
miss = json.loads(json.dumps(t1)); del miss["files"][1]
json.dump(miss, open(sys.argv[4], "w"))
PY
expect 5 "merge refuses a file listed twice" -- "$RIGSCOPE" merge "$WORK/d.csv" "$WORK/u0.json" "$WORK/dup1.json"
check "it names the file and both parts" -- one_line_naming "a.glb is listed twice, in $WORK/u0.json and $WORK/dup1.json"
expect 5 "merge refuses a file never checked" -- "$RIGSCOPE" merge "$WORK/d.csv" "$WORK/u0.json" "$WORK/miss1.json"
check "it names the file" -- one_line_naming "d.glb was never checked"

# A diff farm: a NEW file rewritten between tasks is refused as well.
mkdir -p "$WORK/new"
new_library "$LIB"
for n in a b c d; do cp data/bend_cylinder.glb "$WORK/new/$n.glb"; done
"$RIGSCOPE" -q diff --against "$WORK/new" "$LIB" --task 0/2 --summary "$WORK/d0.json" >/dev/null 2>&1
cp data/joystick_face.glb "$WORK/new/d.glb"
"$RIGSCOPE" -q diff --against "$WORK/new" "$LIB" --task 1/2 --summary "$WORK/d1.json" >/dev/null 2>&1
expect 5 "merge refuses a diff farm whose NEW changed between tasks" -- "$RIGSCOPE" merge "$WORK/dd.csv" "$WORK/d0.json" "$WORK/d1.json"
check "it names the NEW file" -- one_line_naming "$WORK/new/d.glb: $(stat -c %s data/joystick_face.glb) bytes"

finish
