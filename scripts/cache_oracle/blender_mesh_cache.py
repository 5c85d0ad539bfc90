"""Blender's answer for a point cache: the positions its Mesh Cache modifier gives a mesh at given
frames, as CSV (frame, vertex, x, y, z; Python's repr of Blender's float32 coordinates). Run with
Blender 3.4 (Debian's package) by make_oracle.sh; the CSVs it writes are committed in
tests/cache and read by tests/cli/cache/cache_blender.sh.

    blender -b --factory-startup --python-exit-code 1 --python blender_mesh_cache.py -- \\
        BASE.obj CACHE FORMAT FRAME_START FRAMES OUT.csv

The OBJ is imported without axis conversion (forward Y, up Z: Blender's own axes, so the file's
numbers stay as they are) and the modifier left at its defaults (time mode Frame, play mode
Scene, linear interpolation, no axis change) except Frame Start: Blender shows sample F - Frame
Start at scene frame F, whatever the PC2 header's start frame says (docs/cache_notes.md).
"""
import sys

import bpy

obj_path, cache, fmt, frame_start, frames, out = sys.argv[sys.argv.index("--") + 1:]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.wm.obj_import(filepath=obj_path, forward_axis='Y', up_axis='Z')
ob = bpy.context.selected_objects[0]
m = ob.modifiers.new("cache", 'MESH_CACHE')
m.cache_format = fmt
m.filepath = cache
m.frame_start = float(frame_start)
scene = bpy.context.scene
scene.render.fps = 24
with open(out, "w") as f:
    f.write("frame,vertex,x,y,z\n")
    for frame in (int(x) for x in frames.split(",")):
        scene.frame_set(frame)
        depsgraph = bpy.context.evaluated_depsgraph_get()
        evaluated = ob.evaluated_get(depsgraph)
        me = evaluated.to_mesh()
        for i, v in enumerate(me.vertices):
            f.write("%d,%d,%r,%r,%r\n" % (frame, i, v.co.x, v.co.y, v.co.z))
        evaluated.to_mesh_clear()
