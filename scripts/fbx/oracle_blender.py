# usage: blender -b --factory-startup --python oracle_blender.py -- FILE.fbx OUT.json FRAMES_JSON
# Imports FILE with Blender's FBX importer (anim_offset=0: Blender's frame f is the file's KTime
# f / fps), evaluates each frame, and writes every mesh's world positions in metres in the
# FILE's OWN axes: Blender's axis conversion from the file's Up/Front/Coord axes is undone.
# FRAMES_JSON is a JSON list of integer frames.
import bpy, sys, json, os
import numpy
from mathutils import Matrix
from bpy_extras.io_utils import axis_conversion
from io_scene_fbx import parse_fbx
from io_scene_fbx.fbx_utils import RIGHT_HAND_AXES

argv = sys.argv[sys.argv.index("--") + 1:]
src, dst, frames = argv[0], argv[1], json.loads(argv[2])
bpy.ops.wm.read_factory_settings(use_empty=True)
res = bpy.ops.import_scene.fbx(filepath=src, anim_offset=0.0)
if 'FINISHED' not in res:
    sys.exit("import failed: %r" % (res,))
# The importer ignores the Skin's SkinningType: RIGSCOPE_PRESERVE_VOLUME=1 asks for Blender's
# dual-quaternion skinning (the Armature modifier's Preserve Volume) on every mesh.
if os.environ.get('RIGSCOPE_PRESERVE_VOLUME') == '1':
    for o in bpy.data.objects:
        for mod in o.modifiers:
            if mod.type == 'ARMATURE':
                mod.use_deform_preserve_volume = True

# The importer's own reading of GlobalSettings' axes, to undo its conversion.
root, _version = parse_fbx.parse(src)
gs = next(e for e in root.elems if e.id == b'GlobalSettings')
props = {p.props[0]: p.props[4] for e in gs.elems if e.id == b'Properties70' for p in e.elems}
key = ((props.get(b'UpAxis', 2), props.get(b'UpAxisSign', 1)),
       (props.get(b'FrontAxis', 1), props.get(b'FrontAxisSign', 1)),
       (props.get(b'CoordAxis', 0), props.get(b'CoordAxisSign', 1)))
up, forward = {v: k for k, v in RIGHT_HAND_AXES.items()}.get(key, ('Z', 'Y'))
to_file = axis_conversion(from_forward=forward, from_up=up).to_4x4().inverted()

sc = bpy.context.scene
meshes = sorted((o for o in sc.objects if o.type == 'MESH'), key=lambda o: o.name)
out = {"source": src, "fps": sc.render.fps / sc.render.fps_base, "axes": [up, forward],
       "blender": bpy.app.version_string, "meshes": []}
for o in meshes:
    mw = to_file @ o.matrix_world
    out["meshes"].append({"name": o.name, "control_points": len(o.data.vertices),
                          "rest": [list(mw @ v.co) for v in o.data.vertices], "frames": []})
dg = bpy.context.evaluated_depsgraph_get()
for f in frames:
    sc.frame_set(f)
    dg = bpy.context.evaluated_depsgraph_get()
    for o, rec in zip(meshes, out["meshes"]):
        ev = o.evaluated_get(dg)
        m = ev.to_mesh()
        mw = to_file @ ev.matrix_world
        rec["frames"].append({"frame": f, "positions": [list(mw @ v.co) for v in m.vertices]})
        ev.to_mesh_clear()
json.dump(out, open(dst, "w"))
print("oracle_blender", src, "meshes", [(m["name"], m["control_points"]) for m in out["meshes"]], "frames", len(frames))
