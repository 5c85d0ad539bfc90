#!/usr/bin/env bash
# Bad input: documented exit code, one line on stderr naming the file, no output file left.
. "$(dirname "$0")/../common.bash"

out="$WORK/out.csv"
# error_line FILE PROBLEM: stderr is exactly the README's error line, "rigscope: error: FILE: PROBLEM".
error_line() {
    local want="rigscope: error: $1: $2"
    [ "$(wc -l < "$WORK/err")" -eq 1 ] && [ "$(cat "$WORK/err")" = "$want" ] ||
        { echo "  stderr: $(head -3 "$WORK/err")"; echo "  wanted: $want"; return 1; }
}

expect 3 "missing file" -- "$RIGSCOPE" deform "$WORK/nope.glb" -o "$out"
check "missing file: the error line, 'rigscope: error: FILE: problem'" -- error_line "$WORK/nope.glb" "no such file"
check "missing file: no output" -- test ! -e "$out"

# A verb of one file (rom) given a folder: bad input. A verb that takes folders (info, check...)
# searches it; one with no rig file in it is a usage error naming it as a folder (batch.sh).
expect 3 "directory" -- "$RIGSCOPE" rom "$WORK" -o "$WORK/rom.glb"
check "directory: one line" -- one_line_naming "directory"
mkdir -p "$WORK/no_rigs"
expect 2 "a folder without rig files, to a verb that takes folders" -- "$RIGSCOPE" info "$WORK/no_rigs"
check "a folder without rig files: one line naming it as a folder" -- one_line_naming "no_rigs: no rig file in this folder"
: > "$WORK/empty.glb"
expect 3 "empty file" -- "$RIGSCOPE" tension "$WORK/empty.glb" -o "$out"
check "empty: the error line" -- error_line "$WORK/empty.glb" "empty file"
head -c 20000 data/bend_cylinder.glb > "$WORK/trunc.glb"
expect 3 "truncated glb" -- "$RIGSCOPE" tension "$WORK/trunc.glb" -o "$out"
check "truncated: one line naming it and the fault" -- one_line_naming "$WORK/trunc.glb: truncated GLB"
echo "solid x" > "$WORK/model.stl"
expect 3 "unknown extension" -- "$RIGSCOPE" info "$WORK/model.stl"
check "unknown extension: one line" -- one_line_naming "model.stl"
# Assimp's bad glTF files, kept in the corpus without their .bin files: the fault they reach is
# the missing buffer (tests/io/test_load.cpp). The file itself must be there: a missing one also
# exits 3.
for f in glTF2/IndexOutOfRange/IndexOutOfRange.gltf:IndexOutOfRange.bin glTF2/IncorrectVertexArrays/Cube.gltf:Cube.bin \
         glTF2/wrongTypes/badArray.gltf:BoxTextured0.bin glTF2/MissingBin/BoxTextured.gltf:BoxTextured0.bin; do
    bin=${f#*:} f=${f%:*}
    check "assimp bad file $f is in the corpus" -- test -f "$CORPUS/assimp/$f"
    expect 3 "assimp bad file $f" -- "$RIGSCOPE" deform "$CORPUS/assimp/$f" -o "$out"
    check "$f: the error line naming the missing buffer" -- error_line "$CORPUS/assimp/$f" "buffers[0]: buffer file '$bin' not found"
    check "$f: no output" -- test ! -e "$out"
done
ls -A "$WORK" | grep -q rigscope- && { echo "FAIL: temporary files left behind"; failures=$((failures + 1)); }

# A missing texture is only a warning.
expect 0 "missing texture warns" -- "$RIGSCOPE" info "$CORPUS/khronos/interpolation_test.gltf"
check "missing texture: warning in output" -- grep -q "l.jpg" "$WORK/out"

# Usage errors: exit 2.
expect 2 "no subcommand" -- "$RIGSCOPE"
expect 2 "unknown option" -- "$RIGSCOPE" tension data/bend_cylinder.glb --bogus
expect 2 "bad frames" -- "$RIGSCOPE" tension data/bend_cylinder.glb --frames 5..1
expect 2 "frames outside the clip" -- "$RIGSCOPE" tension data/bend_cylinder.glb --frames 500
check "frames outside: names the clip range" -- one_line_naming "outside clip"
cp data/bend_cylinder.glb "$WORK/in.glb"
expect 2 "output equals input" -- "$RIGSCOPE" deform "$WORK/in.glb" -o "$WORK/in.glb"
check "input untouched" -- cmp -s data/bend_cylinder.glb "$WORK/in.glb"
expect 2 "gltf name without # for many frames" -- "$RIGSCOPE" tension data/bend_cylinder.glb -o "$WORK/x.glb"
# --weld only where the weld acts (an accepted option does what it says): deform and drive work
# on file vertices, lint joins vertices by position alone. The commands that weld keep it.
for verb in deform drive lint; do
    expect 2 "$verb refuses --weld" -- "$RIGSCOPE" $verb data/bend_cylinder.glb --weld off
    check "$verb --weld: the error names the option" -- grep -q -- "--weld" "$WORK/err"
done
expect 0 "info takes --weld off" -- "$RIGSCOPE" info data/bend_cylinder.glb --weld off
# The same rule for the other options a command accepted and never read (each ran before, exit 0,
# with output identical to the run without it): refused where they cannot act, with the reason.
B=data/bend_cylinder.glb
FACE=(data/joystick_face.glb --rig data/joystick_face.rig.json)
refused_option() {  # description, the option named in the error, then the command
    local what=$1 option=$2; shift 2
    expect 2 "$what" -- "$RIGSCOPE" "$@"
    check "$what: the error names $option" -- grep -q -- "$option" "$WORK/err"
}
refused_option "deform --threads (one thread)" --threads deform $B --frames 1 --threads 2 -o "$WORK/o.csv"
refused_option "rivet --threads (one thread)" --threads rivet $B --vertices 10 --threads 2 -o "$WORK/o.json"
refused_option "drive --threads (one thread)" --threads drive "${FACE[@]}" --threads 2 -o "$WORK/o.csv"
refused_option "drive --skinning (nothing skinned)" --skinning drive "${FACE[@]}" --skinning dq -o "$WORK/o.csv"
refused_option "drive --mesh with glTF (the whole scene is baked)" --mesh drive "${FACE[@]}" --mesh 0 -o "$WORK/o.glb"
for opt in "--falloff 3" "--stretch-area 0.5" "--compress-area 0.5" "--weight-limit 0.5" "--smooth-k 0.5" "--max-size 5"; do
    refused_option "check ${opt%% *} without --html" "${opt%% *}" check $B --max-stretch 0.8 $opt
done
refused_option "tension --vertices with glTF" --vertices tension $B --frames 1 --vertices 1,2 -o "$WORK/o.glb"
refused_option "--retarget full without --animation" --retarget deform $B --frames 1 --retarget full -o "$WORK/o.csv"
refused_option "--smooth-weights cotan without --smooth" --smooth-weights tension $B --frames 1 --smooth-weights cotan -o "$WORK/o.csv"
refused_option "rivet --weld off without --bake" --weld rivet $B --vertices 10 --weld off -o "$WORK/o.json"
# Where they act, they stay accepted.
expect 0 "tension --threads" -- "$RIGSCOPE" tension $B --frames 1 --threads 2 -o "$WORK/o.csv"
expect 0 "deform --skinning" -- "$RIGSCOPE" deform $B --frames 1 --skinning dq -o "$WORK/o.csv"
expect 1 "check --falloff with --html" -- "$RIGSCOPE" check $B --max-compress 1.01 --falloff 3 --frames 1..91:30 --html "$WORK/o.html"
expect 0 "drive --mesh with CSV" -- "$RIGSCOPE" drive "${FACE[@]}" --mesh 0 --frames 1 -o "$WORK/o.csv"
expect 0 "rivet --bake --weld off" -- "$RIGSCOPE" rivet $B --vertices 10 --bake --weld off --frames 1 -o "$WORK/o.json"
expect 0 "tension --smooth 1 --smooth-weights cotan" -- "$RIGSCOPE" tension $B --frames 1 --smooth 1 --smooth-weights cotan -o "$WORK/o.csv"
expect 0 "tension takes --weld off" -- "$RIGSCOPE" tension data/bend_cylinder.glb --weld off --frames 1 -o "$WORK/weld_tension.csv"

# Output that cannot be written: exit 4.
expect 4 "missing output folder" -- "$RIGSCOPE" deform data/bend_cylinder.glb -o "$WORK/no/such/dir/out.csv"
check "missing folder: the error line names the output" -- error_line "$WORK/no/such/dir/out.csv" "cannot write: folder '$WORK/no/such/dir' does not exist"

# A reference of another vertex count: exit 5 naming both counts.
expect 5 "reference vertex count" -- "$RIGSCOPE" tension data/bend_cylinder.glb --reference "$CORPUS/khronos/cesium_man.gltf" -o "$out"
check "reference mismatch: the error line names both files and counts" -- \
    error_line "$CORPUS/khronos/cesium_man.gltf" "mesh 'Cesium_Man' has 3273 vertices, data/bend_cylinder.glb mesh 'Cylinder' has 625 (544 welded): pair them with --reference-match position"
check "no output after mismatch" -- test ! -e "$out"

finish
