"""Blender 4.5 (PyPI's bpy, build/bpy-venv) bakes a glb's animation to Alembic with its own
exporter, for rigscope to read (issue 58, "Oracles, checked twice"):

    bpy-venv/bin/python abc_blender_export.py -- IN.glb OUT.abc FPS FIRST LAST

Blender's glTF importer reads IN.glb, its armature deforms the mesh, and wm.alembic_export writes
the evaluated meshes of frames FIRST..LAST at FPS (Blender's defaults otherwise: its Y-up
conversion, faces in Alembic's clockwise winding, rewritten at every sample, uv and normals).
"""
import sys

import bpy

from blender_glb import open_glb


def main():
    argv = sys.argv[sys.argv.index("--") + 1:]
    glb, out, fps, first, last = argv[0], argv[1], float(argv[2]), int(argv[3]), int(argv[4])
    scene = open_glb(glb, fps)
    if scene is None:
        return 1
    scene.frame_start, scene.frame_end = first, last
    if bpy.ops.wm.alembic_export(filepath=out, start=first, end=last, selected=False, as_background_job=False) != {"FINISHED"}:
        print(f"Blender did not export {out}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
