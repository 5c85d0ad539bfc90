#!/usr/bin/env bash
# --weight-limit in every output that writes the compress and stretch maps: CSV, the JSON
# vertex series, glTF (_COMPRESS, _STRETCH and COLOR_0), and the CSV and JSON a merge of chunks
# writes, at falloff 1 (the remap's vectorised plain loop) and 2.5 (pow). The expected maps come
# from methods.md's formula applied to each output's own T (weight_limit_check.py); the Python
# module's arrays are tests/python/test_weight_limit.py.
. "$(dirname "$0")/../common.bash"
PY=/usr/bin/python3
in=data/bend_cylinder.glb
checker=tests/cli/weight_limit_check.py
# Frames 31, 61 and 91: the bend's both sides, inside and past both ramps.
frames=31..91:30

for falloff in 1 2.5; do
    args=(tension "$in" --frames "$frames" --weight-limit 0.5 --falloff "$falloff")
    limits=(--falloff "$falloff" --weight-limit 0.5)
    d="$WORK/f$falloff"
    mkdir -p "$d"
    expect 0 "falloff $falloff: CSV" -- "$RIGSCOPE" "${args[@]}" -o "$d/t.csv"
    check "falloff $falloff: CSV maps" -- $PY "$checker" csv "$d/t.csv" "${limits[@]}"
    expect 0 "falloff $falloff: JSON series" -- "$RIGSCOPE" "${args[@]}" --vertices 0..624 -o "$d/t.json"
    check "falloff $falloff: JSON series maps" -- $PY "$checker" json "$d/t.json" "${limits[@]}"
    expect 0 "falloff $falloff: glTF per frame" -- "$RIGSCOPE" "${args[@]}" -o "$d/f_####.glb"
    check "falloff $falloff: glTF maps and colours" -- $PY "$checker" glb "$d/f_0031.glb" "$d/f_0061.glb" "$d/f_0091.glb" "${limits[@]}"
    # Chunks merged: the merge works the maps out again from T and the recorded parameters.
    for ext in csv json; do
        extra=()
        [ "$ext" = json ] && extra=(--vertices 0..624)
        ok=1
        for i in 0 1; do
            "$RIGSCOPE" -q "${args[@]}" "${extra[@]}" --chunk "$i/2" -o "$d/c_$i.$ext" || ok=0
        done
        check "falloff $falloff: $ext chunks run" -- test "$ok" -eq 1
        expect 0 "falloff $falloff: $ext merge" -- "$RIGSCOPE" merge "$d/m.$ext" "$d/c_0.$ext" "$d/c_1.$ext"
        check "falloff $falloff: merged $ext maps" -- $PY "$checker" "$ext" "$d/m.$ext" "${limits[@]}"
    done
done
finish
