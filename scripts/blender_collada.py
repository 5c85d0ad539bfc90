# Collada files and oracles made with Blender 3.4.1 (`apt-get install blender python3-numpy`; only to
# regenerate tests/collada/: the tests read the committed files and need no Blender).
#   blender -b --factory-startup --python scripts/blender_collada.py -- export SRC.glb DST.dae
#   blender -b --factory-startup --python scripts/blender_collada.py -- oracle SRC.dae DST.json FRAME...
# export: Blender's glTF import of SRC, then its Collada export: Z_UP, metres, the action sampled at
#   every frame of its range (LINEAR matrix keys at f / fps), so the file holds Blender's own pose
#   at each frame rather than a curve another program would have to fit.
# oracle: Blender's Collada import of SRC, evaluated at each FRAME: world positions of the mesh's
#   vertices welded by position (1e-6, as ../shared/tools/blender/oracle_tension.py does), the rest
#   (bind) positions with the armature off, and the article's T per vertex (mean length of its
#   edges at rest over the same at the frame). Axes and units as the file has them: Blender keeps a
#   Z_UP, metre file as it is.
import bpy, bmesh, sys, json, os
import numpy
if not hasattr(numpy, "bool"): numpy.bool = bool  # Blender 3.4's glTF importer predates numpy 1.24

argv = sys.argv[sys.argv.index("--") + 1:]
mode, src, dst = argv[0], argv[1], argv[2]
bpy.ops.wm.read_factory_settings(use_empty=True)
sc = bpy.context.scene

def action_range():
    acts = [o.animation_data.action for o in sc.objects if o.animation_data and o.animation_data.action]
    return [int(round(x)) for x in acts[0].frame_range]

if mode == "export":
    bpy.ops.import_scene.gltf(filepath=src)
    sc.frame_start, sc.frame_end = action_range()
    bpy.ops.wm.collada_export(filepath=dst, include_animations=True, export_animation_type_selection='sample',
                              sampling_rate=1, keep_keyframes=False, apply_global_orientation=False,
                              include_children=True, use_texture_copies=False)
    print("exported", dst, "frames", sc.frame_start, sc.frame_end)
    sys.exit(0)

assert mode == "oracle"
frames = [int(f) for f in argv[3:]]
bpy.ops.wm.collada_import(filepath=src)
obj = [o for o in sc.objects if o.type == 'MESH'][0]
bm = bmesh.new(); bm.from_mesh(obj.data)
bmesh.ops.remove_doubles(bm, verts=bm.verts, dist=1e-6)
bm.to_mesh(obj.data); bm.free()
dg = bpy.context.evaluated_depsgraph_get()

def evaluate():
    ev = obj.evaluated_get(dg); m = ev.to_mesh(); mw = ev.matrix_world
    pos = [mw @ v.co for v in m.vertices]
    acc = [0.0] * len(pos); cnt = [0] * len(pos)
    for e in m.edges:
        a, b = e.vertices; l = (pos[a] - pos[b]).length
        acc[a] += l; acc[b] += l; cnt[a] += 1; cnt[b] += 1
    mean = [a / c if c else 0.0 for a, c in zip(acc, cnt)]
    out = ([[round(c, 7) for c in p] for p in pos], mean, len(m.edges))
    ev.to_mesh_clear()
    return out

mods = [md for md in obj.modifiers if md.type == 'ARMATURE']
arm = [o for o in sc.objects if o.type == 'ARMATURE']
for md in mods: md.show_viewport = False
sc.frame_set(frames[0]); dg.update()
rest, rest_mean, edges = evaluate()
for md in mods: md.show_viewport = True
records = []
for f in frames:
    sc.frame_set(f); dg.update()
    pos, mean, _ = evaluate()
    records.append({"frame": f, "positions": pos, "t": [round(r / x, 7) if x else 1.0 for r, x in zip(rest_mean, mean)]})
out = {"about": "Blender 3.4.1 Collada import of %s (welded by position, 1e-6), positions and the article's T at each frame" % os.path.basename(src),
       "axes": "as the file has them (Blender keeps a Z_UP file's axes), metres",
       "fps": sc.render.fps / sc.render.fps_base, "vertex_count": len(rest), "edge_count": edges,
       "armature_modifiers": len(mods), "armatures": len(arm), "rest": rest, "frames": records}
json.dump(out, open(dst, "w"), separators=(",", ":"))
print("oracle", src, "verts", len(rest), "edges", edges, "frames", frames,
      "T range last", min(records[-1]["t"]), max(records[-1]["t"]))
