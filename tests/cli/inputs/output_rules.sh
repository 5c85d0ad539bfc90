#!/usr/bin/env bash
# One rule per thing (issue 41): descriptor paths are written as the shell opened them, an output's
# extension agrees with what is written, '#' patterns only where frames go one file each, info and
# lint state one rest-against-bind distance, position matching works across up axes, and messages
# write ranges and folders as people do.
. "$(dirname "$0")/../common.bash"

BEND=data/bend_cylinder.glb
DAE=tests/collada/bend_cylinder.dae  # the same rig as BEND, exported Z-up
SKEL="$CORPUS/assimp/FBX/animation_with_skeleton.fbx"
[ -f "$SKEL" ] || skip "no $SKEL (RIGSCOPE_CORPUS)"

# --- /dev/stdout, /dev/fd/N, /proc/self/fd/N: the open descriptor, never a rename over its file -
"$RIGSCOPE" -q deform "$BEND" --frames 1 -o - >"$WORK/want.csv"
for target in /dev/stdout /dev/fd/1 /proc/self/fd/1; do
    echo "an earlier line" >"$WORK/log.txt"
    "$RIGSCOPE" -q deform "$BEND" --frames 1 -o "$target" >>"$WORK/log.txt"
    check "-o $target >> log: the earlier line is kept" -- test "$(head -1 "$WORK/log.txt")" = "an earlier line"
    check "-o $target >> log: the output follows it, whole" -- bash -c 'tail -n +2 "$1" | cmp -s - "$2"' _ "$WORK/log.txt" "$WORK/want.csv"
done
# A symlink to a descriptor path (directly, or through a second link) is that descriptor too,
# inside a group whose output the shell sends to one log (issue 57): the lines before and after
# the run stay in the log, the output between them.
ln -s /proc/self/fd/1 "$WORK/fd1_link.csv"
ln -s fd1_link.csv "$WORK/fd1_link2.csv"
ln -s /dev/stdout "$WORK/stdout_link.csv"
for link in fd1_link.csv fd1_link2.csv stdout_link.csv; do
    (echo a; "$RIGSCOPE" -q deform "$BEND" --frames 1 -o "$WORK/$link"; echo b) >"$WORK/group.log"
    check "(echo a; rigscope -o $link -> descriptor 1; echo b) > log: a, the output, b" -- \
        bash -c '[ "$(head -1 "$1")" = a ] && [ "$(tail -1 "$1")" = b ] && sed "1d;\$d" "$1" | cmp -s - "$2"' _ "$WORK/group.log" "$WORK/want.csv"
    check "-o $link: still a link" -- test -L "$WORK/$link"
done
echo "first" >"$WORK/fd3.txt"
"$RIGSCOPE" -q deform "$BEND" --frames 1 -o /dev/fd/3 3>>"$WORK/fd3.txt"
check "-o /dev/fd/3 3>> file: appended to what the shell opened" -- \
    bash -c '[ "$(head -1 "$1")" = first ] && tail -n +2 "$1" | cmp -s - "$2"' _ "$WORK/fd3.txt" "$WORK/want.csv"
expect 4 "-o /dev/fd/9 with no descriptor 9 open" -- "$RIGSCOPE" deform "$BEND" --frames 1 -o /dev/fd/9
check "a closed descriptor: says so" -- one_line_naming "/dev/fd/9: cannot write: descriptor 9 is not open"
# diff -o /dev/stdout is -o -: the rows alone on stdout, no summary mixed in.
"$RIGSCOPE" -q diff "$BEND" "$BEND" --frames 1 -o - >"$WORK/diff_dash.csv"
"$RIGSCOPE" -q diff "$BEND" "$BEND" --frames 1 -o /dev/stdout >"$WORK/diff_dev.csv"
check "diff -o /dev/stdout writes what -o - writes" -- cmp -s "$WORK/diff_dash.csv" "$WORK/diff_dev.csv"

# --- the extension agrees with what is written -------------------------------------------------------
expect 2 "lint -o l.json --format text" -- "$RIGSCOPE" lint "$BEND" -o "$WORK/l.json" --format text
check "lint: text under .json refused" -- one_line_naming "l.json: the extension says json but lint writes text"
expect 2 "lint -o l.csv" -- "$RIGSCOPE" lint "$BEND" -o "$WORK/l.csv"
expect 0 "lint -o l.txt --format text" -- "$RIGSCOPE" lint "$BEND" -o "$WORK/l.txt" --format text
expect 2 "report -o r.json" -- "$RIGSCOPE" report "$BEND" -o "$WORK/r.json"
check "report: a page under .json refused" -- one_line_naming "r.json: the report is an HTML page; name the file .html"
expect 2 "check --html r.json" -- "$RIGSCOPE" check "$BEND" --max-compress 1.5 --html "$WORK/r.json"
for verb in "tension $BEND --frames 1" "diff $BEND $BEND --frames 1" "rom $BEND"; do
    read -ra words <<<"$verb"
    expect 2 "${words[0]} -o x.gltf (binary glTF)" -- "$RIGSCOPE" "${words[@]}" -o "$WORK/x.gltf"
    check "${words[0]} -o x.gltf: says to name it .glb" -- one_line_naming "x.gltf: .*binary glTF; name the file .glb"
done
check "no x.gltf written" -- test ! -e "$WORK/x.gltf"
# USD opens .usdc as a binary crate and .usdz as a zip whatever they hold (issue 57): a text layer
# under either name is refused, before any output.
for ext in usdc usdz; do
    for verb in tension deform; do
        expect 2 "$verb -o x.$ext --format usda" -- "$RIGSCOPE" "$verb" "$CORPUS/usd/lbs.usda" -o "$WORK/x.$ext" --format usda
        check "$verb -o x.$ext --format usda: says to name it .usda" -- one_line_naming "x.$ext: USD reads a $ext file as .* name it .usda"
    done
    check "no x.$ext written" -- test ! -e "$WORK/x.$ext"
done

# --- '#' patterns only where frames are written one file each -------------------------------------
expect 0 "tension -o t_####.glb writes a file per frame" -- "$RIGSCOPE" -q tension "$BEND" --frames 1,2 -o "$WORK/t_####.glb"
check "tension: t_0001.glb and t_0002.glb" -- test -s "$WORK/t_0001.glb" -a -s "$WORK/t_0002.glb"
for args in "tension $BEND --frames 1 -o $WORK/x_####.csv" "deform $BEND --frames 1 -o $WORK/x_####.csv" \
    "tension $BEND --bake-max -o $WORK/x_####.glb" "check $BEND --max-compress 1.5 --junit $WORK/x_##.xml" \
    "diff $BEND $BEND --frames 1 -o $WORK/x_##.json"; do
    read -ra words <<<"$args"
    expect 2 "${words[0]} ${words[*]: -2}: refused" -- "$RIGSCOPE" "${words[@]}"
    check "${words[0]} ${words[*]: -2}: says '#' numbers frames" -- one_line_naming "'#' numbers one file per frame"
done
check "no file named with hashes" -- bash -c '! ls "$1" | grep -q "#"' _ "$WORK"

# --- info and lint: one rest-against-bind distance --------------------------------------------------
"$RIGSCOPE" info "$SKEL" --json >"$WORK/info.json"
"$RIGSCOPE" lint "$SKEL" --format json -o "$WORK/lint.json" 2>/dev/null
check "info's bind_check distance is lint's largest bind_pose distance" -- python3 -c '
import json, sys
info = json.load(open(sys.argv[1])); lint = json.load(open(sys.argv[2]))
d = info["meshes"][0]["bind_check"]["max_distance"]
found = [f["value"] for f in lint["findings"] if f["check"] == "bind_pose"]
assert found, "lint found no bind_pose"
# Both come from one computation (check_bind): equal to the last bit.
assert max(found) == d, (max(found), d)' "$WORK/info.json" "$WORK/lint.json"
"$RIGSCOPE" info "$SKEL" >"$WORK/info.txt"
"$RIGSCOPE" lint "$SKEL" >"$WORK/lint.txt" 2>/dev/null
check "info's and lint's text state the same figure" -- python3 -c '
import re, sys
i = re.search(r"differ by at most (\S+)", open(sys.argv[1]).read()).group(1)
l = re.findall(r"lie up to (\S+) from where they are stored", open(sys.argv[2]).read())
assert l and i in l, (i, l)' "$WORK/info.txt" "$WORK/lint.txt"

# --- diff --match position across up axes -----------------------------------------------------------
# The .dae is Z-up, the .glb Y-up: one rig. Turned to one up axis they pair within the default
# tolerance and move alike (the .dae's positions are the .glb's to 1e-5 m, tests/cli/tension/axes.sh).
expect 0 "diff --match position of the Z-up .dae and the Y-up .glb" -- "$RIGSCOPE" diff "$DAE" "$BEND" --match position \
    --frames 1..91:10 --max-displacement 1e-4
check "Z-up against Y-up: PASS" -- grep -qx PASS "$WORK/out"

# --- ranges and folders as people write them ---------------------------------------------------------
expect 2 "--match-tolerance 2" -- "$RIGSCOPE" diff "$BEND" "$BEND" --match position --match-tolerance 2
check "the range reads 0 to 1" -- one_line_naming "'2' is not a number from 0 to 1"
expect 2 "--max-displacement -1" -- "$RIGSCOPE" diff "$BEND" "$BEND" --max-displacement -1
check "--max-displacement: no 0.000000, no DBL_MAX" -- bash -c 'one=$(cat "$1"); [[ $one == *"is not a number of 0 or more"* && $one != *0.000000* && $one != *17976931348623157* ]]' _ "$WORK/err"
expect 2 "--max-stretch 0" -- "$RIGSCOPE" check "$BEND" --max-stretch 0
check "--max-stretch: not a positive number" -- one_line_naming "'0' is not a positive number"
mkdir -p "$WORK/rigdir"
expect 2 "--rig DIR" -- "$RIGSCOPE" check "$BEND" --max-compress 1.5 --rig "$WORK/rigdir"
check "--rig DIR: names a directory" -- one_line_naming "$WORK/rigdir: is a directory, not a rig file"

# --- a folder that cannot be written says so, not "not enough free space" (issue 57) ------------
# A read-only tmpfs of 64 KiB, mounted in a mount namespace of its own (nothing outside sees it):
# deform's 91 frames of 625 vertices need far more than 64 KiB, and the file system is read-only;
# the second is the problem to name.
mkdir -p "$WORK/ro"
if unshare -m sh -c 'mount -t tmpfs -o ro,size=64k none "$1"' _ "$WORK/ro" 2>/dev/null; then
    expect 4 "-o into a read-only file system" -- unshare -m sh -c 'mount -t tmpfs -o ro,size=64k none "$1" && shift && exec "$@"' _ \
        "$WORK/ro" "$RIGSCOPE" -q deform "$BEND" -o "$WORK/ro/d.csv"
    check "read-only: named as such, not as free space" -- one_line_naming "ro/d.csv: cannot write: Read-only file system"
else
    skip_later "cannot mount a read-only tmpfs in a mount namespace here (unshare -m needs CAP_SYS_ADMIN)"
fi

finish
