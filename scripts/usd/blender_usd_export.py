"""Real exporter files for the USD reader's tests: Blender 4.5's own USD export of corpus rigs.

Run with Blender as a Python module (PyPI's bpy 4.5.15, Python 3.11), not with usd-core's venv;
`RIGSCOPE_SETUP_BPY=1 scripts/setup.sh` installs it into build/bpy-venv:

    build/bpy-venv/bin/python scripts/usd/blender_usd_export.py ../shared/corpus tests/usd_blender

Each rig is imported with Blender's glTF importer and written by `bpy.ops.wm.usd_export` with
armatures, shape keys and animation, the way an artist exports from File > Export > USD: what
rigscope reads is then a file a DCC wrote (its SkelRoot, Skeleton, SkelAnimation, joint order,
BlendShapes and time codes as Blender lays them out), and tests/cli/usd/usd_blender.sh checks
rigscope's deform of each against usd-core's UsdSkel.BakeSkinning.
The joystick face's drivers do not survive a glTF, so the script keys its four shape keys itself
(an animated blend-shape weight per key, as a rigger's action would): the export then carries
BlendShapes with time-sampled weights.
"""
import os
import sys

import bpy

corpus, out = sys.argv[-2], sys.argv[-1]
os.makedirs(out, exist_ok=True)


def reset():
    bpy.ops.wm.read_factory_settings(use_empty=True)


def frame_range():
    # The imported actions' span: Blender's own scene range is 1..250 whatever the clip.
    lo, hi = None, None
    for a in bpy.data.actions:
        s, e = a.frame_range
        lo = s if lo is None else min(lo, s)
        hi = e if hi is None else max(hi, e)
    return int(round(lo)), int(round(hi))


def export(name, binary=True):
    scene = bpy.context.scene
    scene.frame_start, scene.frame_end = frame_range()
    path = os.path.join(out, name + (".usdc" if binary else ".usda"))
    bpy.ops.wm.usd_export(filepath=path, export_animation=True, export_armatures=True, export_shapekeys=True,
                          only_deform_bones=True, export_materials=False, export_textures=False,
                          export_uvmaps=False, export_normals=False, export_lights=False, export_cameras=False,
                          evaluation_mode='RENDER')
    print(f"{path}: frames {scene.frame_start}-{scene.frame_end}, {os.path.getsize(path)} bytes")


def key_shape_keys():
    # Each shape key rises to 1 and falls back over its own quarter of frames 1-97, one after
    # the other, so every weight is animated and the shapes are seen alone and overlapping.
    for o in bpy.data.objects:
        keys = o.data.shape_keys if o.type == 'MESH' else None
        if not keys:
            continue
        blocks = [k for k in keys.key_blocks if k != keys.reference_key]
        for i, k in enumerate(blocks):
            start = 1 + 24 * i
            for frame, value in ((start, 0.0), (start + 16, 1.0), (start + 40, 0.0)):
                k.value = value
                k.keyframe_insert("value", frame=frame)


reset()
bpy.ops.import_scene.gltf(filepath=os.path.join(corpus, "bend_cylinder/bend_cylinder.glb"))
export("bend_cylinder")
reset()
bpy.ops.import_scene.gltf(filepath=os.path.join(corpus, "khronos/cesium_man.gltf"))
export("cesium_man")
reset()
bpy.ops.import_scene.gltf(filepath=os.path.join(corpus, "khronos/rigged_simple.gltf"))
export("rigged_simple", binary=False)
reset()
bpy.ops.import_scene.gltf(filepath=os.path.join(corpus, "joystick_face/joystick_face.glb"))
key_shape_keys()
export("joystick_face")
