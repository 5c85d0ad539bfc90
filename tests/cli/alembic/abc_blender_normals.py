"""Blender 4.5 (PyPI's bpy, build/bpy-venv) and the N of an archive rigscope wrote from a glb:

    bpy-venv/bin/python abc_blender_normals.py -- OUT.abc FPS N.npz IN.glb DEGREES

N.npz: the archive's N (per corner, in the glb's corner order) and P per sample as Alembic's own
library reads them (abc_normals_check.py --dump; this interpreter has no alembic3d).
- Blender's Alembic importer makes N its custom normals: at every sample's frame, the evaluated
  mesh's corner normals are N of the corner, turned into Blender's Z-up
  ((x, y, z) -> (x, -z, y)), to 1e-3 (Blender stores custom normals as two angles in 16 bits)
  plus the spread of N over the corners of the corner's vertex (Blender averages a vertex's
  corner normals that are nearly one: a flat cap's corners when the cap barely bends);
- the DCC itself: Blender's glTF importer reads IN.glb (its NORMAL as custom normals) and its
  armature deforms the mesh; at the same frames its vertices are the archive's P (to 1e-4: the
  same skinning) and its corner normals, which Blender carries through the deformation, are
  within DEGREES of the archive's N at every corner and frame, and within DEGREES / 40 on average
  over the corners of each frame.
Prints the largest angle found; exit 0 when all agree, else one line per difference (at most 20).
"""
import math
import sys

import bpy
import numpy as np

from blender_glb import open_glb

problems = []


def turned(a):
    return np.stack([a[..., 0], -a[..., 2], a[..., 1]], axis=-1)


def corner_data(obj):
    ev = obj.evaluated_get(bpy.context.evaluated_depsgraph_get())
    me = ev.to_mesh()
    co = np.zeros(3 * len(me.vertices))
    me.vertices.foreach_get("co", co)
    verts = np.zeros(len(me.loops), dtype=np.int64)
    me.loops.foreach_get("vertex_index", verts)
    cn = np.zeros(3 * len(me.loops))
    me.corner_normals.foreach_get("vector", cn)
    ev.to_mesh_clear()
    return co.reshape(-1, 3), verts, cn.reshape(-1, 3)


def main():
    argv = sys.argv[sys.argv.index("--") + 1:]
    path, fps, dump, glb, bound = argv[0], float(argv[1]), argv[2], argv[3], float(argv[4])
    d = np.load(dump)
    ns, ps, times = d["n"], d["p"], d["times"]
    frames = [int(round(t * fps)) for t in times]

    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps = int(round(fps))
    if bpy.ops.wm.alembic_import(filepath=path, as_background_job=False) != {"FINISHED"}:
        print(f"Blender did not import {path}")
        return 1
    objs = [o for o in bpy.data.objects if o.type == "MESH"]
    if len(objs) != 1:
        print(f"Blender made {len(objs)} mesh objects of {path}")
        return 1
    worst_read = 0.0
    for k, f in enumerate(frames):
        scene.frame_set(f)
        co, verts, cn = corner_data(objs[0])
        want = turned(ns[k])
        if cn.shape != want.shape:
            problems.append(f"Alembic import, frame {f}: {len(cn)} corners, {len(want)} in N")
            continue
        # Blender averages the custom normals of the corners around a vertex that are nearly one
        # (below its 16-bit angles' threshold): a corner may take up to the spread of N around
        # its vertex, plus 1e-3.
        spread = np.zeros(len(want))
        lo = np.full((len(co), 3), np.inf)
        hi = np.full((len(co), 3), -np.inf)
        np.minimum.at(lo, verts, want)
        np.maximum.at(hi, verts, want)
        spread = np.max(hi[verts] - lo[verts], axis=1)
        gap = np.max(np.abs(cn - want), axis=1)
        worst_read = max(worst_read, float(gap.max()))
        over = gap - spread - 1e-3
        if over.max() > 0:
            c = int(np.argmax(over))
            problems.append(f"Alembic import, frame {f} corner {c} (vertex {verts[c]}): normal {cn[c]}, N {want[c]} "
                            f"(spread of N around the vertex {spread[c]:.3g})")

    scene = open_glb(glb, fps)
    if scene is None:
        return 1
    # The glb's skinned mesh (Blender's importer adds an Icosphere as its bones' display shape).
    objs = [o for o in bpy.data.objects if o.type == "MESH" and any(m.type == "ARMATURE" for m in o.modifiers)]
    if len(objs) != 1:
        print(f"Blender made {len(objs)} skinned mesh objects of {glb}")
        return 1
    worst = worst_mean = 0.0
    for k, f in enumerate(frames):
        scene.frame_set(f)
        co, verts, cn = corner_data(objs[0])
        wp = turned(ps[k])
        if co.shape != wp.shape or np.max(np.abs(co - wp)) > 1e-4:
            problems.append(f"glTF import, frame {f}: Blender's vertices are not the archive's points "
                            f"({co.shape[0]} and {wp.shape[0]}; largest difference "
                            f"{np.max(np.abs(co - wp)) if co.shape == wp.shape else float('nan'):.3g})")
            continue
        want = turned(ns[k])
        cos = np.clip(np.sum(cn * want, axis=1) / np.linalg.norm(cn, axis=1) / np.linalg.norm(want, axis=1), -1, 1)
        ang = np.degrees(np.arccos(cos))
        worst = max(worst, float(ang.max()))
        worst_mean = max(worst_mean, float(ang.mean()))
        if ang.mean() > bound / 40:
            problems.append(f"glTF import, frame {f}: Blender's normals are {ang.mean():.4f} degrees from the archive's on average")
        if ang.max() > bound:
            c = int(np.argmax(ang))
            problems.append(f"glTF import, frame {f} corner {c} (vertex {verts[c]}): Blender's normal {cn[c]}, "
                            f"the archive's {want[c]}: {ang[c]:.3f} degrees apart")
    print(f"largest difference: Alembic import {worst_read:.3g}; glTF import's carried normals {worst:.4f} degrees "
          f"(the largest mean over a frame's corners {worst_mean:.4f})")
    for p in problems[:20]:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
