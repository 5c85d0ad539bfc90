#!/usr/bin/python3
"""Makes one bad input file from a good one, for tests/cli/inputs/bad_inputs.sh.

    make_bad_input.py MAKER OUT_PATH

Each maker starts from data/bend_cylinder.glb (625 vertices, skin of 2 joints, one clip of 91
keys at frames 1..91, 24 fps) or a corpus FBX and breaks exactly one thing.
"""
import base64
import json
import math
import os
import struct
import sys
import zlib

import fbx_tree

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
GOOD_GLB = os.path.join(ROOT, "data", "bend_cylinder.glb")
CORPUS = os.environ.get("RIGSCOPE_CORPUS") or os.path.join(ROOT, "..", "shared", "corpus")
GOOD_FBX = os.path.join(CORPUS, "bend_cylinder", "bend_cylinder.fbx")

# Accessors of bend_cylinder.glb.
POSITION, JOINTS, WEIGHTS, INDICES, INVERSE_BIND, KEY_TIMES = 0, 3, 4, 5, 6, 7


def read_glb(path=GOOD_GLB):
    data = open(path, "rb").read()
    json_len = struct.unpack_from("<I", data, 12)[0]
    doc = json.loads(data[20:20 + json_len])
    bin_len = struct.unpack_from("<I", data, 20 + json_len)[0]
    start = 20 + json_len + 8
    return doc, bytearray(data[start:start + bin_len])


def glb_bytes(doc, binary, json_text=None):
    text = (json_text if json_text is not None else json.dumps(doc, separators=(",", ":"), allow_nan=False)).encode()
    text += b" " * (-len(text) % 4)
    binary = bytes(binary) + b"\0" * (-len(binary) % 4)
    body = struct.pack("<II", len(text), 0x4E4F534A) + text + struct.pack("<II", len(binary), 0x004E4942) + binary
    return struct.pack("<III", 0x46546C67, 2, 12 + len(body)) + body


def element_offset(doc, accessor, index, component=0):
    a = doc["accessors"][accessor]
    view = doc["bufferViews"][a["bufferView"]]
    size = {5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4}[a["componentType"]]
    comps = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}[a["type"]]
    stride = view.get("byteStride", size * comps)
    return view.get("byteOffset", 0) + a.get("byteOffset", 0) + index * stride + component * size


def set_float(doc, binary, accessor, index, component, value):
    struct.pack_into("<f", binary, element_offset(doc, accessor, index, component), value)


def edit(change):
    """A maker that edits the parsed GLB (doc, binary) in place."""
    def make():
        doc, binary = read_glb()
        change(doc, binary)
        return glb_bytes(doc, binary)
    return make


def raw(change):
    """A maker that edits the GLB's bytes."""
    def make():
        data = bytearray(open(GOOD_GLB, "rb").read())
        return bytes(change(data))
    return make


def as_gltf(uri):
    """The good file as .gltf JSON whose single buffer has the given uri (bytes or a function of them)."""
    def make():
        doc, binary = read_glb()
        doc["buffers"][0]["uri"] = uri(binary) if callable(uri) else uri
        return json.dumps(doc).encode()
    return make


def json_chunk(text):
    def make():
        doc, binary = read_glb()
        return glb_bytes(doc, binary, json_text=text)
    return make


def set_all(accessor, count_components, value):
    def change(doc, binary):
        n = doc["accessors"][accessor]["count"]
        for i in range(n):
            for c in range(count_components):
                set_float(doc, binary, accessor, i, c, value)
    return change


def zero_duration(time):
    def change(doc, binary):
        set_all(KEY_TIMES, 1, time)(doc, binary)
        doc["accessors"][KEY_TIMES]["min"] = [time]
        doc["accessors"][KEY_TIMES]["max"] = [time]
    return change


def decreasing_keys(doc, binary):
    set_float(doc, binary, KEY_TIMES, 10, 0, 0.0)


def weights_zero_first_vertex(doc, binary):
    for c in range(4):
        set_float(doc, binary, WEIGHTS, 0, c, 0.0)


def joint_beyond(doc, binary):
    # Vertex 0's first influence has a non-zero weight; its joint index becomes 7 (the skin has 2).
    binary[element_offset(doc, JOINTS, 0, 0)] = 7
    set_float(doc, binary, WEIGHTS, 0, 0, 1.0)


def index_out_of_range(doc, binary):
    struct.pack_into("<H", binary, element_offset(doc, INDICES, 0), 9999)


def cyclic(doc, binary):
    # Armature > Bone > Bone.001, and now Bone.001 > Armature: every node has a parent.
    doc["nodes"][0]["children"] = [3]


def two_parents(doc, binary):
    doc["nodes"][2]["children"] = [0]  # Bone.001 is already Bone's child


def empty_animation(doc, binary):
    doc["animations"][0]["channels"] = []
    doc["animations"][0]["samplers"] = []


def infinite_translation():
    # JSON has no infinity; 1e400 parses to one. Python's json cannot write it, so it is spliced in.
    doc, binary = read_glb()
    doc["nodes"][0]["translation"] = [0, 12345.5, 0]
    return glb_bytes(doc, binary, json_text=json.dumps(doc).replace("12345.5", "1e400"))


def rename_nodes(doc, binary):
    for n in doc["nodes"]:
        n["name"] = "other_" + n.get("name", "")


def fbx_truncated():
    return open(GOOD_FBX, "rb").read()[:4000]


def fbx_duplicate_joint_names():
    # huesitos' Model Bone.007 renamed Bone.008: two joints of one name, which Assimp merges into
    # one bone (the fuzz finding in tests/regressions/fbx_duplicate_joint_names.fbx).
    data = open(os.path.join(CORPUS, "assimp", "FBX", "huesitos.fbx"), "rb").read()
    name = b"Bone.007\x00\x01Model"
    assert data.count(name) == 1
    return data.replace(name, b"Bone.008\x00\x01Model")


def raw_key_value_arrays(data):
    """Offsets of the values of every uncompressed KeyValueFloat array of a binary FBX."""
    wide = struct.unpack_from("<I", data, 23)[0] >= 7500
    found = []

    def walk(pos, limit):
        while pos < limit:
            end, nprops, plen = struct.unpack_from("<QQQ" if wide else "<III", data, pos)
            head = 24 if wide else 12
            if end == 0:
                return
            name_len = data[pos + head]
            name = data[pos + head + 1:pos + head + 1 + name_len]
            q = props = pos + head + 1 + name_len
            for _ in range(nprops):
                kind = chr(data[q])
                q += 1
                if kind in "YCIFDL":
                    q += {"Y": 2, "C": 1, "I": 4, "F": 4, "D": 8, "L": 8}[kind]
                elif kind in "fdlib":
                    count, encoding, length = struct.unpack_from("<III", data, q)
                    if name == b"KeyValueFloat" and kind == "f" and encoding == 0 and count >= 2:
                        found.append(q + 12)
                    q += 12 + length
                else:  # S, R
                    q += 4 + struct.unpack_from("<I", data, q)[0]
            if props + plen < end:
                walk(props + plen, end)
            pos = end

    walk(27, len(data) - 200)
    return found


def fbx_key_value(value):
    # The second key of animation_with_skeleton.fbx's first uncompressed curve set to `value`:
    # a jump of -6e9 degrees made Assimp allocate until the machine ran out of memory (the fuzz
    # finding in tests/regressions/fbx_rotation_key_minus_6e9.fbx).
    def make():
        data = bytearray(open(os.path.join(CORPUS, "assimp", "FBX", "animation_with_skeleton.fbx"), "rb").read())
        struct.pack_into("<f", data, raw_key_value_arrays(data)[0] + 4, value)
        return bytes(data)
    return make


def fbx_edit(change, path=None):
    """A maker that reads a corpus FBX (bend_cylinder by default) as a record tree, lets `change`
    edit it, and writes it back with every offset recomputed (tests/cli/fbx_tree.py)."""
    def make():
        tree = fbx_tree.Fbx(open(path or GOOD_FBX, "rb").read())
        change(tree)
        return tree.bytes()
    return make


def first_array(tree, name):
    """The first array property of the first record of that name: (record props, index, kind)."""
    rec = next(tree.find(name))
    for i, (kind, _) in enumerate(rec[1]):
        if kind in fbx_tree.ARRAY_ELEMENT:
            return rec[1], i, kind
    raise AssertionError("no array in " + name.decode())


def with_nested(depth):
    def change(tree):
        objects = next(r for r in tree.records if r[0] == b"Objects")
        objects[2].append(fbx_tree.nested(b"Nest", depth))
    return change


def nested_then(depth, other):
    def make():
        tree = fbx_tree.Fbx(other())
        with_nested(depth)(tree)
        return tree.bytes()
    return make


def vertices_edit(change_parts):
    """Rewrites the first Vertices array (bend_cylinder's is zlib-compressed): change_parts gets
    (count, encoding, stored bytes, element kind) and returns the new (count, encoding, bytes)."""
    def change(tree):
        props, i, kind = first_array(tree, b"Vertices")
        count, encoding, data = fbx_tree.array_parts(props[i][1])
        assert encoding == 1
        props[i] = (kind, fbx_tree.array_payload(*change_parts(count, encoding, data, kind)))
    return fbx_edit(change)


def polygon_index_out_of_range(tree):
    props, i, kind = first_array(tree, b"PolygonVertexIndex")
    values = fbx_tree.array_values(kind, props[i][1])
    values[5] = 100000 if values[5] >= 0 else ~100000
    props[i] = (kind, fbx_tree.pack_array(kind, values))


def many_shape_links(tree):
    # joystick_face's first Shape connected 20,000 times more to its channel: each link is a
    # morph target of 861 dense offsets (200 MB) from a file under 2 MB.
    conns = next(r for r in tree.records if r[0] == b"Connections")
    shape_ids = {struct.unpack("<q", r[1][0][1])[0] for r in tree.find(b"Geometry")
                 if r[1][2][1][4:] == b"Shape"}
    link = next(c for c in conns[2] if c[1][0][1][4:] == b"OO" and struct.unpack("<q", c[1][1][1])[0] in shape_ids)
    conns[2].extend([link] * 20000)


def deep_ascii():
    text = "; FBX 7.4.0 project file\nFBXHeaderExtension:  {\n}\n" + "Nest: {\n" * 100000 + "}\n" * 100000
    return text.encode()


def fbx_zeroed_middle():
    data = bytearray(open(GOOD_FBX, "rb").read())
    data[2000:len(data) - 2000] = bytes(len(data) - 4000)
    return bytes(data)


def fbx_bad_version():
    data = bytearray(open(GOOD_FBX, "rb").read())
    struct.pack_into("<I", data, 23, 1)
    return bytes(data)


def u32(offset, value):
    def change(data):
        struct.pack_into("<I", data, offset, value)
        return data
    return change


def json_length(data):
    return struct.unpack_from("<I", data, 12)[0]


def bin_chunk_past_end(data):
    at = 20 + json_length(data)
    struct.pack_into("<I", data, at, struct.unpack_from("<I", data, at)[0] + 1000)
    return data


def first_chunk_bin(data):
    struct.pack_into("<I", data, 16, 0x004E4942)
    return data


def setter(path, value):
    """doc[path...] = value."""
    def change(doc, binary):
        node = doc
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return change


def deleter(*path):
    def change(doc, binary):
        node = doc
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]
    return change


MAKERS = {
    # The GLB container.
    "truncated_glb": raw(lambda d: d[:20000]),
    "wrong_magic": raw(lambda d: b"glTX" + d[4:]),
    "glb_version_1": raw(u32(4, 1)),
    "header_length_past_end": raw(lambda d: u32(8, len(d) + 100)(d)),
    "chunk_length_past_end": raw(u32(12, 0x7FFFFFF0)),
    "bin_chunk_past_end": raw(bin_chunk_past_end),
    "first_chunk_not_json": raw(first_chunk_bin),
    "invalid_json": json_chunk('{"asset": {"version": "2.0"}, "nodes": [ '),
    "json_not_object": json_chunk("[1, 2, 3]"),
    "no_asset": edit(deleter("asset")),
    "gltf_version_1": edit(setter(["asset", "version"], "1.0")),
    # Buffers, views and accessors.
    "buffer_shorter_than_declared": edit(setter(["buffers", 0, "byteLength"], 60000)),
    "buffer_over_budget": edit(setter(["buffers", 0, "byteLength"], 2 ** 40)),
    "view_past_buffer": edit(setter(["bufferViews", 0, "byteLength"], 50000)),
    "accessor_past_view": edit(setter(["accessors", POSITION, "count"], 700)),
    "accessor_offset_past_view": edit(setter(["accessors", POSITION, "byteOffset"], 100)),
    "accessor_count_gigabytes": edit(setter(["accessors", POSITION, "count"], 2_000_000_000)),
    "accessor_bad_component_type": edit(setter(["accessors", POSITION, "componentType"], 5127)),
    "accessor_bad_type": edit(setter(["accessors", POSITION, "type"], "VEC5")),
    "stride_smaller_than_element": edit(setter(["bufferViews", 0, "byteStride"], 4)),
    "attribute_index_out_of_range": edit(setter(["meshes", 0, "primitives", 0, "attributes", "POSITION"], 99)),
    "data_uri_not_base64": as_gltf("data:application/octet-stream,AAAA"),
    "data_uri_bad_base64": as_gltf(lambda b: "data:application/octet-stream;base64," + "!!" + base64.b64encode(bytes(b)).decode()),
    "external_buffer_missing": as_gltf("no_such_buffer.bin"),
    "external_buffer_url": as_gltf("https://example.invalid/buffer.bin"),
    # Geometry and skin.
    "nan_position": edit(lambda d, b: set_float(d, b, POSITION, 0, 0, math.nan)),
    "infinite_position": edit(lambda d, b: set_float(d, b, POSITION, 5, 1, math.inf)),
    "vertex_index_out_of_range": edit(index_out_of_range),
    "indices_not_triangles": edit(setter(["accessors", INDICES, "count"], 3251)),
    "weights_all_zero": edit(set_all(WEIGHTS, 4, 0.0)),
    "weights_zero_one_vertex": edit(weights_zero_first_vertex),
    "negative_weight": edit(lambda d, b: set_float(d, b, WEIGHTS, 3, 0, -0.5)),
    "nan_weight": edit(lambda d, b: set_float(d, b, WEIGHTS, 3, 0, math.nan)),
    "joint_index_beyond_skin": edit(joint_beyond),
    "skin_without_joints": edit(setter(["skins", 0, "joints"], [])),
    "nan_inverse_bind": edit(lambda d, b: set_float(d, b, INVERSE_BIND, 1, 12, math.nan)),
    "infinite_node_translation": infinite_translation,
    # Hierarchy.
    "cyclic_hierarchy": edit(cyclic),
    "node_with_two_parents": edit(two_parents),
    # Animation.
    "empty_animation": edit(empty_animation),
    "zero_duration_clip": edit(zero_duration(1.0 / 24)),
    "zero_duration_off_frame": edit(zero_duration(0.01)),
    "clip_of_a_million_seconds": edit(lambda d, b: set_float(d, b, KEY_TIMES, 90, 0, 1e6)),
    "nan_key_time": edit(lambda d, b: set_float(d, b, KEY_TIMES, 4, 0, math.nan)),
    "decreasing_key_times": edit(decreasing_keys),
    "unknown_interpolation": edit(setter(["animations", 0, "samplers", 0, "interpolation"], "BEZIER")),
    "renamed_nodes": edit(rename_nodes),
    # FBX.
    "fbx_not_fbx": lambda: b"; this is a text file, not an FBX\n" * 10,
    "fbx_truncated": fbx_truncated,
    "fbx_zeroed_middle": fbx_zeroed_middle,
    "fbx_duplicate_joint_names": fbx_duplicate_joint_names,
    "fbx_key_value_jump": fbx_key_value(-6e9),
    "fbx_key_value_nan": fbx_key_value(float("nan")),
    "fbx_nested_100000": fbx_edit(with_nested(100000)),
    "fbx_nested_70": fbx_edit(with_nested(70)),
    "fbx_nested_70_key_jump": nested_then(70, fbx_key_value(-6e9)),
    "fbx_nested_70_key_nan": nested_then(70, fbx_key_value(float("nan"))),
    "fbx_ascii_nested_100000": deep_ascii,
    "fbx_zlib_extra_bytes": vertices_edit(lambda n, e, d, k: (n, e, d + b"\0\0\0\0")),
    "fbx_zlib_bad_data": vertices_edit(lambda n, e, d, k: (n, e, d[:2] + bytes(b ^ 0x5A for b in d[2:]))),
    "fbx_zlib_count_too_large": vertices_edit(lambda n, e, d, k: (n + 3, e, d)),
    "fbx_zlib_count_too_small": vertices_edit(lambda n, e, d, k: (n - 3, e, d)),
    "fbx_array_length_lie": vertices_edit(lambda n, e, d, k: (n + 3, 0, zlib.decompress(d))),
    "fbx_array_claims_300m": vertices_edit(lambda n, e, d, k: (300_000_000, e, d)),
    "fbx_polygon_index_out_of_range": fbx_edit(polygon_index_out_of_range),
    "fbx_many_shape_links": fbx_edit(many_shape_links, os.path.join(CORPUS, "joystick_face", "joystick_face.fbx")),
    # Other inputs.
    "empty_file": lambda: b"",
    "rig_invalid_json": lambda: b'{"controls": [ {"name": "mouth", ',
}


COMPRESSED = os.path.join(ROOT, "tests", "compressed")


def compressed(name, change):
    """A maker that edits one of tests/compressed's files (see its README)."""
    def make():
        doc, binary = read_glb(os.path.join(COMPRESSED, name))
        change(doc, binary)
        return glb_bytes(doc, binary)
    return make


def meshopt(doc, view):
    return doc["bufferViews"][view]["extensions"]["EXT_meshopt_compression"]


def meshopt_truncated(doc, binary):
    # View 0 is POSITION's vertex stream: cut it to half its bytes.
    meshopt(doc, 0)["byteLength"] //= 2


def meshopt_wrong_filter(doc, binary):
    # The quaternion filter (8-byte elements) on the 4-byte normals view: meshoptimizer asserts
    # on such a stride, so rigscope must refuse it first.
    meshopt(doc, 1)["filter"] = "QUATERNION"


def meshopt_unknown_filter(doc, binary):
    meshopt(doc, 1)["filter"] = "WAVELET"


def meshopt_count_lie(doc, binary):
    meshopt(doc, 0)["count"] = 10 ** 9


def draco_primitive(doc):
    return doc["meshes"][0]["primitives"][0]


def draco_count_lie(doc, binary):
    # The POSITION accessor claims one vertex more than the Draco data holds.
    doc["accessors"][draco_primitive(doc)["attributes"]["POSITION"]]["count"] += 1


def draco_truncated(doc, binary):
    view = doc["bufferViews"][draco_primitive(doc)["extensions"]["KHR_draco_mesh_compression"]["bufferView"]]
    view["byteLength"] //= 2


def draco_missing_attribute(doc, binary):
    draco_primitive(doc)["extensions"]["KHR_draco_mesh_compression"]["attributes"]["JOINTS_0"] = 40


MAKERS.update({
    "meshopt_truncated": compressed("bend_cylinder_cc.glb", meshopt_truncated),
    "meshopt_wrong_filter": compressed("bend_cylinder_cc.glb", meshopt_wrong_filter),
    "meshopt_unknown_filter": compressed("bend_cylinder_cc.glb", meshopt_unknown_filter),
    "meshopt_count_lie": compressed("bend_cylinder_cc.glb", meshopt_count_lie),
    "draco_count_lie": compressed("bend_cylinder_draco.glb", draco_count_lie),
    "draco_truncated": compressed("bend_cylinder_draco.glb", draco_truncated),
    "draco_missing_attribute": compressed("bend_cylinder_draco.glb", draco_missing_attribute),
})


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in MAKERS:
        sys.exit("usage: make_bad_input.py MAKER OUT_PATH\nmakers: " + " ".join(sorted(MAKERS)))
    data = MAKERS[sys.argv[1]]()
    with open(sys.argv[2], "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()
