"""Blender 4.5's own Alembic importer (PyPI's bpy, in build/bpy-venv) reads an archive rigscope
wrote, compared with rigscope's CSV output of the same run:

    bpy-venv/bin/python abc_blender_check.py -- OUT.abc FPS DEFORM.csv [TENSION.csv] [--uv=IN.glb]

- Blender makes one mesh object per CSV mesh, driven by a Mesh Sequence Cache modifier;
- at every CSV frame (scene.frame_set at FPS), the evaluated mesh's vertices are the CSV's
  x, y, z as float32, exactly, turned as Blender's importer turns Alembic's Y-up into its Z-up:
  (x, y, z) -> (x, -z, y) (a negation: no rounding);
- with TENSION.csv: the colour attribute Cd Blender makes of the C3f parameter (byte colours per
  corner, unit_float_to_uchar_clamp of each channel: floor(255 c + 0.5) clamped) holds, at every
  frame and corner, the bytes of (compress, stretch, 0) of the corner's vertex.
- with --uv=IN.glb: Blender's UV map of the mesh, at every corner, is the glb's TEXCOORD_0 of the
  corner's vertex as Blender's glTF importer shows it, (u, 1 - v), float32 exactly.
Exit 0 when all agree; else one line per difference (at most 20).
"""
import csv
import struct
import sys

import bpy

problems = []


def f32(text):
    return struct.unpack("<f", struct.pack("<f", float(text)))[0]


def byte(c):
    return max(0, min(255, int(c * 255.0 + 0.5)))


def read_csv(path, cols):
    out = {}
    for r in csv.DictReader(open(path)):
        out.setdefault(r["mesh"].replace("/", "_"), {}).setdefault(int(r["frame"]), []).append(tuple(f32(r[c]) for c in cols))
    return out


def glb_uvs(path):
    """The first mesh's TEXCOORD_0 per vertex, primitives in order, as float32 (u, 1 - v)."""
    import json
    data = open(path, "rb").read()
    json_len, = struct.unpack_from("<I", data, 12)
    doc = json.loads(data[20:20 + json_len])
    blob = data[20 + json_len + 8:]
    out = []
    for prim in doc["meshes"][0]["primitives"]:
        acc = doc["accessors"][prim["attributes"]["TEXCOORD_0"]]
        view = doc["bufferViews"][acc["bufferView"]]
        stride = view.get("byteStride", 8)
        base = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
        for i in range(acc["count"]):
            u, v = struct.unpack_from("<2f", blob, base + i * stride)
            out.append((u, f32(1.0 - v)))
    return out


def main():
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else sys.argv[1:]
    uv_glb = [a[5:] for a in argv if a.startswith("--uv=")]
    argv = [a for a in argv if not a.startswith("--uv=")]
    uvs = glb_uvs(uv_glb[0]) if uv_glb else None
    path, fps, deform_csv = argv[0], float(argv[1]), argv[2]
    tension = read_csv(argv[3], ("t", "compress", "stretch")) if len(argv) > 3 else None
    deform = read_csv(deform_csv, ("x", "y", "z"))
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps = int(round(fps))
    scene.render.fps_base = scene.render.fps / fps
    if bpy.ops.wm.alembic_import(filepath=path, as_background_job=False) != {"FINISHED"}:
        print(f"Blender did not import {path}")
        return 1
    objects = {o.name: o for o in bpy.data.objects if o.type == "MESH"}
    if sorted(objects) != sorted(deform):
        problems.append(f"Blender made objects {sorted(objects)}, the CSV has meshes {sorted(deform)}")
    for name, obj in objects.items():
        if name not in deform:
            continue
        for frame in sorted(deform[name]):
            scene.frame_set(frame)
            ev = obj.evaluated_get(bpy.context.evaluated_depsgraph_get())
            me = ev.to_mesh()
            want = deform[name][frame]
            if len(me.vertices) != len(want):
                problems.append(f"{name} frame {frame}: {len(me.vertices)} vertices in Blender, {len(want)} in the CSV")
            else:
                co = [0.0] * (3 * len(want))
                me.vertices.foreach_get("co", co)
                for i, (x, y, z) in enumerate(want):
                    if (co[3 * i], co[3 * i + 1], co[3 * i + 2]) != (x, -z, y):
                        problems.append(f"{name} frame {frame} vertex {i}: {tuple(co[3 * i:3 * i + 3])} in Blender, "
                                        f"{(x, -z, y)} from the CSV")
                        break
            if uvs is not None and frame == min(deform[name]):
                if len(me.uv_layers) != 1:
                    problems.append(f"{name}: {len(me.uv_layers)} UV maps in Blender, not 1")
                else:
                    verts = [0] * len(me.loops)
                    me.loops.foreach_get("vertex_index", verts)
                    got = [0.0] * (2 * len(me.loops))
                    me.uv_layers[0].data.foreach_get("uv", got)
                    for k, v in enumerate(verts):
                        if (got[2 * k], got[2 * k + 1]) != uvs[v]:
                            problems.append(f"{name} corner {k} (vertex {v}): UV {tuple(got[2 * k:2 * k + 2])} in Blender, "
                                            f"{uvs[v]} from the glb")
                            break
            if tension is not None:
                cd = me.color_attributes.get("Cd")
                if cd is None or cd.domain != "CORNER" or cd.data_type != "BYTE_COLOR":
                    problems.append(f"{name} frame {frame}: no corner byte colour Cd in Blender "
                                    f"({[(a.name, a.domain, a.data_type) for a in me.color_attributes]})")
                else:
                    rows = tension[name][frame]
                    verts = [0] * len(me.loops)
                    me.loops.foreach_get("vertex_index", verts)
                    got = [0.0] * (4 * len(me.loops))
                    cd.data.foreach_get("color_srgb", got)
                    for k, v in enumerate(verts):
                        have = tuple(round(g * 255) for g in got[4 * k:4 * k + 3])
                        expect = (byte(rows[v][1]), byte(rows[v][2]), 0)
                        if have != expect:
                            problems.append(f"{name} frame {frame} corner {k} (vertex {v}): Cd bytes {have} in Blender, "
                                            f"{expect} from the CSV's compress and stretch")
                            break
            ev.to_mesh_clear()
    for p in problems[:20]:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
