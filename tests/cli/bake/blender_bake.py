"""The second check of bake (issue 60): Blender 4.5 (bpy, build/bpy-venv) bakes the same per-vertex
values into the same UV map, through its own rasteriser (Cycles' bake of an Emission shader fed
by an attribute).

  blender_bake.py MESH.glb VALUES.csv COLUMN FRAME SIZE OUT.npy [LO HI]

MESH.glb is imported by Blender's glTF importer (its vertices in the file's order, none merged);
the COLUMN of rigscope's `tension -o x.csv` at FRAME, mapped by (x - LO) / (HI - LO), becomes a
point attribute; the bake (EMIT, one sample, no margin) writes a SIZE x SIZE float image, saved
as an array with row 0 the top, as rigscope writes a glTF's image (Blender's row 0 is the
bottom, its v the glTF's flipped).
"""
import csv
import sys

import bpy
import numpy as np


def main(glb, values_csv, column, frame, size, out, lo="0", hi="1"):
    size, lo, hi = int(size), float(lo), float(hi)
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.gltf(filepath=glb, merge_vertices=False)
    obj = next(o for o in bpy.context.scene.objects if o.type == "MESH")
    mesh = obj.data
    vals = {}
    with open(values_csv) as f:
        for r in csv.DictReader(f):
            if r["frame"] == frame:  # one mesh in the file
                vals[int(r["vertex"])] = (float(r[column]) - lo) / (hi - lo)
    assert len(vals) == len(mesh.vertices), f"{len(vals)} values for {len(mesh.vertices)} vertices"
    attr = mesh.color_attributes.new("rigscope", "FLOAT_COLOR", "POINT")
    for v in range(len(mesh.vertices)):
        attr.data[v].color = (vals[v], vals[v], vals[v], 1.0)

    mat = bpy.data.materials.new("bake")
    mat.use_nodes = True
    nodes, links = mat.node_tree.nodes, mat.node_tree.links
    nodes.clear()
    a = nodes.new("ShaderNodeAttribute")
    a.attribute_name = "rigscope"
    e = nodes.new("ShaderNodeEmission")
    o = nodes.new("ShaderNodeOutputMaterial")
    links.new(a.outputs["Color"], e.inputs["Color"])
    links.new(e.outputs["Emission"], o.inputs["Surface"])
    img = bpy.data.images.new("baked", size, size, float_buffer=True, alpha=False)
    img.colorspace_settings.name = "Non-Color"  # the values as they are, no view transform
    t = nodes.new("ShaderNodeTexImage")
    t.image = img
    nodes.active = t
    obj.data.materials.clear()
    obj.data.materials.append(mat)

    scene = bpy.context.scene
    scene.render.engine = "CYCLES"
    scene.cycles.device = "CPU"
    scene.cycles.samples = 1
    scene.render.bake.margin = 0
    for other in scene.objects:  # the bake takes the selected meshes: this one alone
        other.select_set(False)
    bpy.context.view_layer.objects.active = obj
    obj.select_set(True)
    bpy.ops.object.bake(type="EMIT")
    px = np.array(img.pixels[:], dtype=np.float64).reshape(size, size, 4)[:, :, 0]
    np.save(out, np.flipud(px))


if __name__ == "__main__":
    main(*sys.argv[1:])
