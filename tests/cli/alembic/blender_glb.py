"""A glb opened in a fresh Blender 4.5 (bpy) at a frame rate: what the Alembic tests' Blender
scripts start from (abc_blender_export.py, abc_blender_normals.py)."""
import bpy


def open_glb(glb, fps):
    """Blender's factory settings, the scene at round(fps), the glb imported by Blender's own
    importer; the scene, or None (said on stdout) when the import fails."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps = int(round(fps))
    if bpy.ops.import_scene.gltf(filepath=glb) != {"FINISHED"}:
        print(f"Blender did not import {glb}")
        return None
    return scene
