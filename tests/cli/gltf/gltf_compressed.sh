#!/usr/bin/env bash
# glTF from the optimisers users run (gltfpack, gltf-transform, gltf-pipeline) over the corpus: meshopt, Draco
# and quantized files give the original's positions and T within the quantization's bound
# (compare_compressed.py derives it from the bit depths passed here).
. "$(dirname "$0")/../common.bash"
PY=/usr/bin/python3
GT=scripts/gltf_tools/node_modules/.bin/gltf-transform
GP=scripts/gltf_tools/node_modules/.bin/gltf-pipeline
# Not a skip: scripts/setup.sh installs both (Debian's gltfpack, the npm lock in scripts/gltf_tools).
check "gltfpack installed (scripts/setup.sh)" -- test -n "$(command -v gltfpack)"
check "gltf-transform installed (scripts/setup.sh)" -- test -x "$GT"
check "gltf-pipeline installed (scripts/setup.sh)" -- test -x "$GP"

# gltfpack: the animation kept at the corpus's 24 fps with 16-bit rotations, so that the mesh's
# quantization is what is measured.
PACK_ANIM=(-kn -af 24 -ar 16 -at 24 -as 24)

# compare NAME ORIGINAL COMPRESSED POSITION_BITS WEIGHT_BITS EXTENSION (options for deform and
# tension in the array EXTRA)
EXTRA=()
compare() {
    local name=$1 orig=$2 comp=$3 pbits=$4 wbits=$5 ext=$6
    expect 0 "$name: info" -- "$RIGSCOPE" info "$comp" --json
    check "$name: info lists $ext" -- $PY -c "
import json,sys; j=json.load(open('$WORK/out')); assert '$ext' in j['extensions'], j['extensions']"
    expect 0 "$name: deform original" -- "$RIGSCOPE" deform "$orig" ${EXTRA[@]+"${EXTRA[@]}"} -o "$WORK/$name.orig.csv"
    expect 0 "$name: deform compressed" -- "$RIGSCOPE" deform "$comp" ${EXTRA[@]+"${EXTRA[@]}"} -o "$WORK/$name.comp.csv"
    expect 0 "$name: tension original" -- "$RIGSCOPE" tension "$orig" ${EXTRA[@]+"${EXTRA[@]}"} -o "$WORK/$name.orig.t.csv"
    expect 0 "$name: tension compressed" -- "$RIGSCOPE" tension "$comp" ${EXTRA[@]+"${EXTRA[@]}"} -o "$WORK/$name.comp.t.csv"
    check "$name: positions and T within the quantization's bound" -- $PY tests/cli/compare_compressed.py \
        "$WORK/$name.orig.csv" "$WORK/$name.comp.csv" "$WORK/$name.orig.t.csv" "$WORK/$name.comp.t.csv" "$pbits" "$wbits"
}

BC=$CORPUS/bend_cylinder/bend_cylinder.glb
JF=$CORPUS/joystick_face/joystick_face.glb
CM=$CORPUS/khronos/cesium_man.gltf

# gltfpack: quantization alone (KHR_mesh_quantization, default 14-bit positions, 8-bit weights).
gltfpack -i "$BC" -o "$WORK/bc_q.glb" "${PACK_ANIM[@]}" >/dev/null 2>&1
compare bc_q "$BC" "$WORK/bc_q.glb" 14 8 KHR_mesh_quantization
# -vpn: normalized positions instead of integers; 16 bits.
gltfpack -i "$BC" -o "$WORK/bc_qn.glb" "${PACK_ANIM[@]}" -vp 16 -vpn >/dev/null 2>&1
compare bc_qn "$BC" "$WORK/bc_qn.glb" 16 8 KHR_mesh_quantization
# meshopt: -c and -cc (the latter adds filters and the index sequence codec).
gltfpack -i "$BC" -o "$WORK/bc_c.glb" "${PACK_ANIM[@]}" -c >/dev/null 2>&1
compare bc_c "$BC" "$WORK/bc_c.glb" 14 8 EXT_meshopt_compression
gltfpack -i "$BC" -o "$WORK/bc_cc.glb" "${PACK_ANIM[@]}" -cc >/dev/null 2>&1
compare bc_cc "$BC" "$WORK/bc_cc.glb" 14 8 EXT_meshopt_compression
gltfpack -i "$CM" -o "$WORK/cm_cc.glb" "${PACK_ANIM[@]}" -cc >/dev/null 2>&1
compare cm_cc "$CM" "$WORK/cm_cc.glb" 14 8 EXT_meshopt_compression
# Morph targets: deltas quantized too (gltfpack uses the position bits for them).
gltfpack -i "$JF" -o "$WORK/jf_cc.glb" "${PACK_ANIM[@]}" -cc >/dev/null 2>&1
compare jf_cc "$JF" "$WORK/jf_cc.glb" 14 0 EXT_meshopt_compression

# gltf-transform: Draco (14-bit positions, 12-bit generic attributes: weights), meshopt and
# quantize (14-bit positions, 8-bit weights by default).
$GT draco "$BC" "$WORK/bc_draco.glb" >/dev/null 2>&1
compare bc_draco "$BC" "$WORK/bc_draco.glb" 14 12 KHR_draco_mesh_compression
$GT draco "$CM" "$WORK/cm_draco.glb" >/dev/null 2>&1
compare cm_draco "$CM" "$WORK/cm_draco.glb" 14 12 KHR_draco_mesh_compression
# Morph targets under Draco, driven by the joystick rig so that the deltas count (the file's own
# morph weights stay 0).
$GT draco "$JF" "$WORK/jf_draco.glb" >/dev/null 2>&1
EXTRA=(--rig data/joystick_face.rig.json)
compare jf_draco "$JF" "$WORK/jf_draco.glb" 14 0 KHR_draco_mesh_compression
EXTRA=()
$GT meshopt "$BC" "$WORK/bc_mo.glb" >/dev/null 2>&1
compare bc_mo "$BC" "$WORK/bc_mo.glb" 14 8 EXT_meshopt_compression
$GT quantize "$BC" "$WORK/bc_tq.glb" >/dev/null 2>&1
compare bc_tq "$BC" "$WORK/bc_tq.glb" 14 8 KHR_mesh_quantization

# gltf-pipeline (Cesium's): Draco at its defaults (11-bit positions, 8-bit skinning attributes),
# as a user runs it, and at 14/12 bits.
$GP -i "$BC" -o "$WORK/bc_gp.glb" -d >/dev/null 2>&1
compare bc_gp "$BC" "$WORK/bc_gp.glb" 11 8 KHR_draco_mesh_compression
$GP -i "$CM" -o "$WORK/cm_gp.glb" -d --draco.quantizePositionBits 14 --draco.quantizeGenericBits 12 >/dev/null 2>&1
compare cm_gp "$CM" "$WORK/cm_gp.glb" 14 12 KHR_draco_mesh_compression

finish
