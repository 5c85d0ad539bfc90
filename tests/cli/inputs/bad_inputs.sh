#!/usr/bin/env bash
# The catalogue of bad inputs (docs/robustness.md): each row makes one broken file from a good
# one at test time (make_bad_input.py), runs a command on it and checks the documented exit
# code, the message, and that no output or temporary file is left behind. A farm batch must get
# a clear refusal, never a crash or a half-written file.
. "$(dirname "$0")/../common.bash"
PY=/usr/bin/python3
MAKER="$(dirname "$0")/../make_bad_input.py"
GOOD=data/bend_cylinder.glb
OUTDIR="$WORK/outputs"
mkdir -p "$OUTDIR"
trap 'chattr -i "$WORK/readonly" 2>/dev/null; rm -rf "$WORK"' EXIT

rs() { "$RIGSCOPE" "$@"; }
# One line on stderr holding the fragment as plain text (messages hold brackets and dots).
one_line_with() { [ "$(grep -c . "$WORK/err")" -eq 1 ] && grep -qF -- "$1" "$WORK/err"; }
# A full disk as far as this process is concerned: files stop growing past 100 KiB (EFBIG).
rs_small_disk() { (ulimit -f 100; exec "$RIGSCOPE" "$@"); }

# row MAKER EXIT FRAGMENT -- COMMAND...
# MAKER names a make_bad_input.py maker whose file COMMAND reads as @IN ("-": none). @OUT is a
# path in an output folder that must stay empty when the command fails. On failure stderr must
# be one line holding FRAGMENT; on success FRAGMENT must appear on stdout or stderr.
row() {
    local maker=$1 code=$2 fragment=$3
    shift 4
    local ext=glb
    case $maker in data_uri_* | external_*) ext=gltf ;; fbx_*) ext=fbx ;; rig_*) ext=json ;; esac
    local in="$WORK/$maker.$ext"
    if [ "$maker" != - ] && ! $PY "$MAKER" "$maker" "$in"; then
        echo "FAIL: $maker: could not make the file"; failures=$((failures + 1)); return
    fi
    local args=() a
    for a in "$@"; do a=${a//@IN/$in}; a=${a//@OUT/$OUTDIR/result}; args+=("$a"); done
    local what="$maker: ${args[*]:1}"
    expect "$code" "$what" -- "${args[@]}"
    if [ "$code" -ne 0 ]; then
        check "$what: one line naming '$fragment'" -- one_line_with "$fragment"
        check "$what: no output or temporary left" -- test -z "$(ls -A "$OUTDIR")"
    else
        check "$what: output names '$fragment'" -- grep -qF -- "$fragment" "$WORK/out" "$WORK/err"
    fi
    rm -rf "${OUTDIR:?}"/* "$OUTDIR"/.[!.]* 2>/dev/null
}

# known ROW...: a row whose expected behaviour is decided (docs/robustness.md) but not yet what
# rigscope does. Its failures are listed as KNOWN and do not fail the suite; once it passes,
# it says so, and the `known` should go.
known() {
    local f=$failures p=$passes
    "$@" > "$WORK/known" 2>&1
    if [ "$failures" -gt "$f" ]; then
        sed 's/^FAIL: /KNOWN: /' "$WORK/known"
        failures=$f
        passes=$p
    else
        cat "$WORK/known"
        echo "FIXED: '${*:2:2}' now passes: drop its 'known'"
    fi
}
# Key times far from any frame would make the default frame list endless: should the limit on it
# break, a time limit keeps that row from running for hours.
rs_briefly() { timeout 10 "$RIGSCOPE" "$@"; }

# maker                          exit  message fragment                      command
# -- The GLB container --
row truncated_glb                   3 "truncated GLB"                        -- rs tension @IN -o @OUT.csv
row wrong_magic                     3 "wrong magic"                          -- rs tension @IN -o @OUT.csv
row glb_version_1                   3 "unsupported GLB version 1"            -- rs tension @IN -o @OUT.csv
row header_length_past_end          3 "header declares 49896 bytes"          -- rs deform @IN -o @OUT.csv
row chunk_length_past_end           3 "chunk at byte 12 runs past the end"   -- rs tension @IN -o @OUT.csv
row bin_chunk_past_end              3 "runs past the end of the file"        -- rs tension @IN -o @OUT.csv
row first_chunk_not_json            3 "first chunk is not JSON"              -- rs tension @IN -o @OUT.csv
row invalid_json                    3 "invalid JSON"                         -- rs info @IN
row json_not_object                 3 "JSON is not an object"                -- rs info @IN
row no_asset                        3 "no 'asset' object"                    -- rs info @IN
row gltf_version_1                  3 "unsupported glTF version '1.0'"       -- rs info @IN
row empty_file                      3 "empty file"                           -- rs tension @IN -o @OUT.csv
# -- Buffers, views, accessors --
row buffer_shorter_than_declared    3 "holds 46776 bytes, byteLength says 60000" -- rs tension @IN -o @OUT.csv
row buffer_over_budget              3 "past the memory limit"                -- rs tension @IN -o @OUT.csv
row view_past_buffer                3 "past the end of buffer 0"             -- rs tension @IN -o @OUT.csv
row accessor_past_view              3 "700 elements run past the end of bufferViews[0]" -- rs tension @IN -o @OUT.csv
row accessor_offset_past_view       3 "run past the end of bufferViews[0]"   -- rs tension @IN -o @OUT.csv
row accessor_count_gigabytes        3 "past the memory limit of 8192 MiB" -- rs tension @IN -o @OUT.csv
row accessor_bad_component_type     3 "invalid componentType 5127"           -- rs tension @IN -o @OUT.csv
row accessor_bad_type               3 "invalid type 'VEC5'"                  -- rs tension @IN -o @OUT.csv
row stride_smaller_than_element     3 "smaller than the element size"        -- rs tension @IN -o @OUT.csv
row attribute_index_out_of_range    3 "POSITION: index 99 out of range"      -- rs tension @IN -o @OUT.csv
row data_uri_not_base64             3 "malformed data URI"                   -- rs tension @IN -o @OUT.csv
row data_uri_bad_base64             3 "malformed data URI (invalid base64)"  -- rs tension @IN -o @OUT.csv
row external_buffer_missing         3 "'no_such_buffer.bin' not found"       -- rs tension @IN -o @OUT.csv
row external_buffer_url             3 "is not a local file"                  -- rs tension @IN -o @OUT.csv
row -                               3 "the file would take"                  -- rs tension $GOOD --max-memory 0.01 -o @OUT.csv
# -- Geometry and skin --
row nan_position                    3 "NaN or infinite position"             -- rs tension @IN -o @OUT.csv
row infinite_position               3 "NaN or infinite position"             -- rs deform @IN -o @OUT.csv
row infinite_node_translation       3 "number overflow"                      -- rs tension @IN -o @OUT.csv
row vertex_index_out_of_range       3 "index 9999 out of range (625 vertices)" -- rs tension @IN -o @OUT.csv
row indices_not_triangles           3 "is not a multiple of 3"               -- rs tension @IN -o @OUT.csv
row negative_weight                 3 "negative weight at vertex 3"          -- rs tension @IN -o @OUT.csv
row nan_weight                      3 "NaN or infinite weight"               -- rs tension @IN -o @OUT.csv
row joint_index_beyond_skin         3 "joint index 7 beyond the skin's 2 joints" -- rs tension @IN -o @OUT.csv
row skin_without_joints             3 "no joints"                            -- rs tension @IN -o @OUT.csv
row nan_inverse_bind                3 "NaN or infinite value"                -- rs tension @IN -o @OUT.csv
# Weights summing to 0 are a warning, not an error: such vertices stay at rest, as in Blender
# and Maya (docs/robustness.md).
row weights_zero_one_vertex         0 "1 vertices have no skin weight"       -- rs tension @IN --frames 61 --format json
row weights_all_zero                0 "625 vertices have no skin weight"     -- rs deform @IN --frames 61
# -- Hierarchy --
row cyclic_hierarchy                3 "cyclic node hierarchy"                -- rs tension @IN -o @OUT.csv
row node_with_two_parents           3 "more than one parent"                 -- rs tension @IN -o @OUT.csv
# -- Animation and frames --
row empty_animation                 3 "has no channels (empty animation)"    -- rs tension @IN -o @OUT.csv
row nan_key_time                    3 "NaN or infinite key"                  -- rs tension @IN -o @OUT.csv
row decreasing_key_times            3 "key times decrease at key 10"         -- rs tension @IN -o @OUT.csv
row unknown_interpolation           3 "unknown 'BEZIER'"                     -- rs tension @IN -o @OUT.csv
# A clip whose keys all sit at one time is a valid single pose: one frame.
row zero_duration_clip              0 "1,0.041666666666666664,Cylinder,0,"   -- rs deform @IN
# The same between two frames (keys at 0.01 s): still one pose, evaluated as the nearest frame.
row zero_duration_off_frame         0 "0,0,Cylinder,0,"                      -- rs deform @IN
# A last key a million seconds in: 24 million default frames. Refused, naming the way out.
row clip_of_a_million_seconds 3 "frames at 24 fps (over ten million" -- rs_briefly tension @IN -o @OUT.csv
row -                               2 "frame 500 is outside clip 'ArmatureAction' (frames 1..91" -- rs tension $GOOD --frames 500 -o @OUT.csv
row -                               2 "frame 0 is outside clip"              -- rs deform $GOOD --frames 0..10 -o @OUT.csv
row -                               2 "asked, but the file has no animation" -- rs deform "$CORPUS/pab/arnaud.fbx" --frames 1 -o @OUT.csv
row -                               5 "no clip 'walk'"                       -- rs tension $GOOD --clip walk -o @OUT.csv
row renamed_nodes                   5 "no animated joint matches"            -- rs tension $GOOD --animation @IN -o @OUT.csv
# -- FBX --
row fbx_not_fbx                     3 "not an FBX file"                      -- rs tension @IN -o @OUT.csv
row fbx_truncated                   3 "ends past the end of the file (4,000 bytes)"             -- rs tension @IN -o @OUT.csv
row fbx_zeroed_middle               3 "unknown property type 0x00"           -- rs tension @IN -o @OUT.csv
# Binary FBX is read from the file itself: two joints of one name stay two joints (Assimp merged
# them), and a key of -6e9 degrees is one more number (Assimp split it into 3 GB of keys).
row fbx_duplicate_joint_names       0 "skin 'Cylinder': 9 joints"            -- rs info @IN
row fbx_key_value_jump              0 "45 channels, 945 keys"                -- rs_briefly info @IN
row fbx_key_value_nan               3 "NaN or infinite key value"            -- rs_briefly tension @IN -o @OUT.csv
# Nothing past the raw reader's limits reaches Assimp (issue 18, classes 4 and 5).
row fbx_nested_100000               3 "nested deeper than 64 levels"         -- rs tension @IN -o @OUT.csv
row fbx_nested_70                   3 "nested deeper than 64 levels"         -- rs tension @IN -o @OUT.csv
row fbx_nested_70_key_jump          3 "nested deeper than 64 levels"         -- rs_briefly deform @IN -o @OUT.csv
row fbx_nested_70_key_nan           3 "nested deeper than 64 levels"         -- rs_briefly deform @IN -o @OUT.csv
row fbx_ascii_nested_100000         3 "ASCII FBX nested deeper than 64 levels" -- rs tension @IN -o @OUT.csv
row fbx_zlib_extra_bytes            3 "array 'Vertices' has 4 bytes after its zlib data" -- rs deform @IN -o @OUT.csv
row fbx_zlib_bad_data               3 "array 'Vertices' holds bad zlib data" -- rs deform @IN -o @OUT.csv
row fbx_zlib_count_too_large        3 "array 'Vertices' inflates to"         -- rs deform @IN -o @OUT.csv
row fbx_zlib_count_too_small        3 "array 'Vertices' inflates to more than" -- rs deform @IN -o @OUT.csv
row fbx_array_length_lie            3 "array 'Vertices' holds 13056 bytes for 1635 elements" -- rs deform @IN -o @OUT.csv
row fbx_polygon_index_out_of_range  3 "polygon vertex index 100000 at position 5" -- rs deform @IN -o @OUT.csv
row fbx_many_shape_links            3 "the morph targets of mesh 'Face' would take" -- rs deform @IN --max-memory 100 -o @OUT.csv
# Refused from the array's header, before inflating: 300M doubles claimed in a 54 KB file.
row fbx_array_claims_300m           3 "(300000000 elements) would take 2289 MiB, past the memory limit of 100 MiB" -- rs deform @IN --max-memory 100 -o @OUT.csv
# -- Collada: broken copies of tests/collada/bend_cylinder.dae (Blender's export) --
DAE=tests/collada/bend_cylinder.dae
head -c 60000 "$DAE" > "$WORK/truncated.dae"
row -                               3 "not valid XML (Start-end tags mismatch" -- rs tension "$WORK/truncated.dae" -o @OUT.csv
sed 's/>Bone Bone_001</>Bone Bone_404</' "$DAE" > "$WORK/missing_joint.dae"
row -                               3 "skinned to bone 'Bone_404', which names no node" -- rs tension "$WORK/missing_joint.dae" -o @OUT.csv
sed -E 's/<v>([0-9]+) ([0-9]+) /<v>9 \2 /' "$DAE" > "$WORK/joint_index.dae"
row -                               3 "vertex 0 uses joint index 9, but the skin has 2 joints" -- rs tension "$WORK/joint_index.dae" -o @OUT.csv
sed -E 's/<v>([0-9]+) ([0-9]+) /<v>\1 99999 /' "$DAE" > "$WORK/weight_index.dae"
row -                               3 "vertex 0 uses weight index 99999, but the skin has 1250 weights" -- rs tension "$WORK/weight_index.dae" -o @OUT.csv
sed 's/<v>/<v>0 5 /' "$DAE" > "$WORK/v_longer.dae"
row -                               3 "<v> holds 2502 indices, <vcount> needs 2500" -- rs tension "$WORK/v_longer.dae" -o @OUT.csv
sed 's/positions-array" count="1875"/positions-array" count="2000000000"/' "$DAE" > "$WORK/array_count.dae"
row -                               3 "says count=\"2000000000\" but holds 1875 values" -- rs tension "$WORK/array_count.dae" -o @OUT.csv
sed 's/<accessor source="#Cylinder-mesh-positions-array" count="625"/<accessor source="#Cylinder-mesh-positions-array" count="900000000"/' "$DAE" > "$WORK/accessor_count.dae"
row -                               3 "its accessor claims 900000000 elements of 3 values" -- rs tension "$WORK/accessor_count.dae" -o @OUT.csv
# A byte that is no digit in an index list made Assimp loop for ever; a value that is no number
# made it quote the whole rest of the array.
$PY -c 'import sys; d = open(sys.argv[1], "rb").read(); i = d.index(b"<p>") + 8; sys.stdout.buffer.write(d[:i] + b"\x82" + d[i:])' "$DAE" > "$WORK/p_byte.dae"
row -                               3 "<p> in <geometry> 'Cylinder-mesh' holds something that is not an integer" -- rs_briefly tension "$WORK/p_byte.dae" -o @OUT.csv
sed 's/-0.3255682 /-m.3255682 /' "$DAE" > "$WORK/not_a_number.dae"
row -                               3 "('-m.3255682') is not a finite number" -- rs tension "$WORK/not_a_number.dae" -o @OUT.csv
$PY -c 'import sys; sys.stdout.write("<?xml version=\"1.0\"?><COLLADA>" + "<node>" * 100000 + "</node>" * 100000 + "</COLLADA>")' > "$WORK/nested.dae"
row -                               3 "XML nested deeper than 256 levels"   -- rs tension "$WORK/nested.dae" -o @OUT.csv
sed 's/<COLLADA/<NOTCOLLADA/' "$DAE" > "$WORK/not_collada.dae"
row -                               3 "not a Collada file"                   -- rs tension "$WORK/not_collada.dae" -o @OUT.csv
echo "xof 0303txt 0032" > "$WORK/model.x"
row -                               3 "DirectX .x is not read: Assimp reads it, but its skins and animation are untested" -- rs info "$WORK/model.x"
# -- Inputs that do not fit together, options --
row -                               5 "has 160 vertices"                     -- rs tension $GOOD --reference "$CORPUS/khronos/rigged_simple.gltf" -o @OUT.csv
row -                               2 "no mesh 'Face'"                       -- rs tension $GOOD --mesh Face -o @OUT.csv
row -                               2 "--chunk: '4/4': need 0 <= I < N"       -- rs tension $GOOD --chunk 4/4 -o @OUT.csv
row -                               3 "no such file"                         -- rs tension "$WORK/missing.glb" -o @OUT.csv
echo "v 0 0 0" > "$WORK/model.xyz"
row -                               3 "unknown extension '.xyz'"             -- rs info "$WORK/model.xyz"
# -- Outputs --
row -                               4 "folder '$WORK/no/such' does not exist" -- rs deform $GOOD -o "$WORK/no/such/out.csv"
row -                               4 "is a directory"                       -- rs deform $GOOD --format csv -o "$OUTDIR"
cp "$GOOD" "$WORK/in.glb"
row -                               2 "output path is an input file"         -- rs tension "$WORK/in.glb" --frames 61 -o "$WORK/in.glb"
ln -s in.glb "$WORK/link.glb"
row -                               2 "output path is an input file"         -- rs tension "$WORK/in.glb" --frames 61 -o "$WORK/link.glb"
check "inputs untouched" -- cmp -s "$GOOD" "$WORK/in.glb"
cp "$GOOD" "$WORK/ref.glb"
row -                         2 "output path is an input file"         -- rs tension "$WORK/in.glb" --reference "$WORK/ref.glb" --frames 61 -o "$WORK/ref.glb"
check "reference untouched" -- cmp -s "$GOOD" "$WORK/ref.glb"
row -                               4 "file size limit reached"              -- rs_small_disk tension $GOOD -o @OUT.csv
# An unwritable folder: permissions, or for root (who ignores them) an immutable folder. Where
# neither holds, the script reports a skip (exit 77) once its other rows have run.
mkdir "$WORK/readonly"
chmod 555 "$WORK/readonly"
touch "$WORK/readonly/probe" 2>/dev/null && { rm -f "$WORK/readonly/probe"; chattr +i "$WORK/readonly" 2>/dev/null; }
if touch "$WORK/readonly/probe" 2>/dev/null; then
    rm -f "$WORK/readonly/probe"
    skip_later "unwritable output folder (neither permissions nor chattr +i hold here)"
else
    row -                           4 "readonly/out.csv: cannot write"       -- rs tension $GOOD -o "$WORK/readonly/out.csv"
    check "unwritable folder: nothing left in it" -- test -z "$(ls -A "$WORK/readonly")"
fi
# -- Compressed glTF (tests/compressed: meshopt from gltfpack, Draco from gltf-transform) --
row meshopt_truncated               3 "corrupt or truncated ATTRIBUTES stream" -- rs tension @IN -o @OUT.csv
row meshopt_wrong_filter            3 "QUATERNION filter needs byteStride 8, not 4" -- rs tension @IN -o @OUT.csv
row meshopt_unknown_filter          3 "unknown filter 'WAVELET'"             -- rs deform @IN -o @OUT.csv
row meshopt_count_lie               3 "count 1000000000 cannot fit in 2086 compressed bytes" -- rs deform @IN -o @OUT.csv
row draco_count_lie                 3 "Draco data holds 625 points, accessors[1] says 626" -- rs tension @IN -o @OUT.csv
row draco_truncated                 3 "Draco data does not decode"           -- rs tension @IN -o @OUT.csv
row draco_missing_attribute         3 "Draco data has no attribute 40"       -- rs deform @IN -o @OUT.csv
# -- Rig files (--rig, docs/rig.md) --
row rig_invalid_json                2 "not valid JSON"                       -- rs tension data/joystick_face.glb --rig @IN -o @OUT.csv
row -                               2 "cannot read the rig file"             -- rs deform $GOOD --rig "$WORK/no_rig.json" -o @OUT.csv

finish
