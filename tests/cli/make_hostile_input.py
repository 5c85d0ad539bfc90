#!/usr/bin/python3
"""Makes one hostile input file, for tests/cli/inputs/hostile_inputs.sh (issue 18's classes).

    make_hostile_input.py MAKER OUT_PATH [ARG]

Makers that edit a real file start from data/bend_cylinder.glb (625 vertices, a skin of 2
joints, one clip of 91 keys); the others build a small glTF from nothing. Each breaks, or
stresses, exactly one thing.
"""
import base64
import json
import math
import os
import random
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_bad_input import INDICES, KEY_TIMES, glb_bytes, read_glb  # noqa: E402

FLOAT, UINT, USHORT, UBYTE = 5126, 5125, 5123, 5121


def gltf_text(doc):
    return json.dumps(doc, separators=(",", ":"), allow_nan=False).encode()


def buffer_as(uri):
    """bend_cylinder as .gltf whose buffer 0 is named by `uri` (the test puts the bytes there)."""
    doc, binary = read_glb()
    doc["buffers"][0]["uri"] = uri
    return gltf_text(doc)


def image_as(uri):
    doc, binary = read_glb()
    doc["buffers"][0]["uri"] = "data:application/octet-stream;base64," + base64.b64encode(bytes(binary)).decode()
    doc["images"] = [{"uri": uri}]
    return gltf_text(doc)


def required(ext):
    doc, binary = read_glb()
    doc["extensionsUsed"] = [ext]
    doc["extensionsRequired"] = [ext]
    return glb_bytes(doc, binary)


def sampler_input_vec3():
    # The key times read as VEC3: 91 keys become 30 "times" of three numbers each.
    doc, binary = read_glb()
    a = doc["accessors"][KEY_TIMES]
    a["type"] = "VEC3"
    a["count"] = a["count"] // 3
    a.pop("min", None)
    a.pop("max", None)
    return glb_bytes(doc, binary)


def base64_junk_after_padding():
    doc, binary = read_glb()
    # bend_cylinder's buffer is a multiple of 4 bytes: one byte more makes the encoding end in
    # padding, after which the junk follows.
    data = bytes(binary) + b"\0"
    doc["buffers"][0]["byteLength"] = len(data)
    doc["buffers"][0]["uri"] = "data:application/octet-stream;base64," + base64.b64encode(data).decode() + "QUJD"
    return gltf_text(doc)


def base_doc():
    return {"asset": {"version": "2.0"}, "scenes": [{"nodes": [0]}], "scene": 0}


def instanced(instances, count):
    """One mesh whose POSITION accessor holds `count` vertices (no bufferView: zeros), used by
    `instances` nodes: each node's copy of the mesh counts against the budget."""
    doc = base_doc()
    doc["accessors"] = [{"componentType": FLOAT, "type": "VEC3", "count": count}]
    doc["meshes"] = [{"primitives": [{"attributes": {"POSITION": 0}, "mode": 0}]}]
    doc["nodes"] = [{"children": list(range(1, instances + 1))}] + [{"mesh": 0} for _ in range(instances)]
    return gltf_text(doc)


def shared_accessor(primitives, count):
    """One accessor of `count` vertices shared by `primitives` primitives of one mesh: a tiny file
    whose mesh is primitives x count vertices."""
    doc = base_doc()
    doc["accessors"] = [{"componentType": FLOAT, "type": "VEC3", "count": count}]
    doc["meshes"] = [{"primitives": [{"attributes": {"POSITION": 0}, "mode": 0}] * primitives}]
    doc["nodes"] = [{"mesh": 0}]
    return gltf_text(doc)


def with_buffer(doc, parts):
    """Packs (accessor dict, bytes) parts into one data-URI buffer, a view per part."""
    blob = b""
    doc["bufferViews"], doc["accessors"] = [], []
    for acc, data in parts:
        doc["bufferViews"].append({"buffer": 0, "byteOffset": len(blob), "byteLength": len(data)})
        acc = dict(acc, bufferView=len(doc["bufferViews"]) - 1)
        doc["accessors"].append(acc)
        blob += data + b"\0" * (-len(data) % 4)
    doc["buffers"] = [{"byteLength": len(blob)}]
    return doc, blob


def mesh_glb(positions, triangles, joints=None, weights=None, joint_count=0):
    doc = base_doc()
    flat = [c for p in positions for c in p]
    lo = [min(p[k] for p in positions) for k in range(3)]
    hi = [max(p[k] for p in positions) for k in range(3)]
    parts = [({"componentType": FLOAT, "type": "VEC3", "count": len(positions), "min": lo, "max": hi},
              struct.pack("<%df" % len(flat), *flat)),
             ({"componentType": UINT, "type": "SCALAR", "count": len(triangles)}, struct.pack("<%dI" % len(triangles), *triangles))]
    attrs = {"POSITION": 0}
    if joints is not None:
        parts.append(({"componentType": USHORT, "type": "VEC4", "count": len(positions)}, struct.pack("<%dH" % len(joints), *joints)))
        parts.append(({"componentType": FLOAT, "type": "VEC4", "count": len(positions)}, struct.pack("<%df" % len(weights), *weights)))
        attrs.update({"JOINTS_0": 2, "WEIGHTS_0": 3})
    doc, blob = with_buffer(doc, parts)
    doc["meshes"] = [{"name": "m", "primitives": [{"attributes": attrs, "indices": 1}]}]
    if joints is None:
        doc["nodes"] = [{"mesh": 0}]
    else:
        doc["nodes"] = [{"mesh": 0, "skin": 0, "children": list(range(1, joint_count + 1))}] + \
                       [{"name": "j%d" % j} for j in range(joint_count)]
        doc["skins"] = [{"joints": list(range(1, joint_count + 1))}]
    return glb_bytes(doc, blob)


def weld_one_point(n):
    """n vertices at one point (and one far away, so the mesh has a size), in degenerate
    triangles: every one welds to the first."""
    positions = [(0.0, 0.0, 0.0)] * n + [(1.0, 1.0, 1.0)]
    triangles = [i for t in range(n // 3) for i in (3 * t, 3 * t + 1, 3 * t + 2)]
    return mesh_glb(positions, triangles)


def weld_ball(n, copies):
    """n points of a 4 mm lattice inside a 0.3 m ball, then `copies` exact copies of some of them,
    beside a 1 km triangle: the weld grid's cells, sized for the 1 km mesh, each hold thousands of
    the ball's vertices. The weld tolerance is 1.7 mm (1e-6 of the 1.7 km diagonal): the lattice
    points are farther apart and never weld, each copy welds to its original, so the mesh has
    exactly n + 3 welded vertices."""
    rng = random.Random(18)
    r = 74  # lattice steps across the radius: 74 x 4 mm < 0.3 m
    lattice = []
    for x in range(-r, r + 1):
        for y in range(-r, r + 1):
            left = r * r - x * x - y * y
            if left >= 0:
                h = math.isqrt(left)
                lattice += [(x * 0.004, y * 0.004, z * 0.004) for z in range(-h, h + 1)]
    rng.shuffle(lattice)
    points = lattice[:n]
    points += [points[rng.randrange(n)] for _ in range(copies)]
    positions = [(1000.0, 0.0, 0.0), (0.0, 1000.0, 0.0), (0.0, 0.0, 1000.0)] + points
    triangles = [0, 1, 2] + [i + 3 for i in range(len(points) - len(points) % 3)]
    return mesh_glb(positions, triangles)


def weld_crowd_distinct(n):
    """n skinned vertices at one point, each with a different pair of joints: none may weld, so
    the weld's comparisons grow with n^2 and it must stop with a clear error."""
    joint_count = 300
    positions = [(0.0, 0.0, 0.0)] * n + [(1.0, 1.0, 1.0)]
    joints, weights = [], []
    for i in range(n + 1):
        joints += [(i // 100) % 200, 200 + i % 100, 0, 0]
        weights += [0.5, 0.5, 0.0, 0.0]
    triangles = [i for t in range(n // 3) for i in (3 * t, 3 * t + 1, 3 * t + 2)]
    return mesh_glb(positions, triangles, joints, weights, joint_count)


def node_chain(n, cycle):
    """n nodes, each the only child of the one before; with `cycle`, the first node is also the
    child of the last, so no node is a root."""
    doc = {"asset": {"version": "2.0"}}
    doc["nodes"] = [{"children": [i + 1]} if i + 1 < n else {} for i in range(n)]
    if cycle:
        doc["nodes"][-1] = {"children": [0]}
    else:
        doc["scenes"] = [{"nodes": [0]}]
    return gltf_text(doc)


def bend_cylinder_bin():
    return bytes(read_glb()[1])


MAKERS = {
    "bend_cylinder_bin": bend_cylinder_bin,
    "buffer_outside": lambda: buffer_as("../outside.bin"),
    "buffer_outside_encoded": lambda: buffer_as("%2E%2E/outside.bin"),
    "buffer_absolute": lambda: buffer_as("/etc/passwd"),
    "buffer_via_link": lambda: buffer_as("link.bin"),
    "buffer_inside": lambda: buffer_as("sub/../inside.bin"),
    "image_outside": lambda: image_as("../../../../etc/passwd"),
    # Extensions that change geometry and that rigscope does not implement (Draco and meshopt
    # are read since issue 17: tests/cli/gltf/gltf_compressed.sh).
    "requires_instancing": lambda: required("EXT_mesh_gpu_instancing"),
    "requires_unknown": lambda: required("KHR_mesh_future_compression"),
    "requires_unlit": lambda: required("KHR_materials_unlit"),
    "sampler_input_vec3": sampler_input_vec3,
    "base64_junk_after_padding": base64_junk_after_padding,
    "instances_200": lambda: instanced(200, 1000000),
    "instances_3": lambda: instanced(3, 1000000),
    "shared_accessor": lambda: shared_accessor(16, 20000000),
    "shared_accessor_8": lambda: shared_accessor(8, 1000000),
    "weld_one_point": lambda: weld_one_point(30000),
    "weld_ball": lambda: weld_ball(270000, 30000),
    "weld_crowd_distinct": lambda: weld_crowd_distinct(20000),
    "chain_250k": lambda: node_chain(250000, False),
    "chain_cycle_100k": lambda: node_chain(100000, True),
}


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in MAKERS:
        sys.exit("usage: make_hostile_input.py MAKER OUT_PATH (makers: %s)" % ", ".join(sorted(MAKERS)))
    data = MAKERS[sys.argv[1]]()
    with open(sys.argv[2], "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()
