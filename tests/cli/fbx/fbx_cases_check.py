#!/usr/bin/env python3
"""Checks the crafted FBX files in tests/fbx_cases/ with a parser of its own (standard library
only, independent of scripts/fbx/fbx_write.py): the binary record tree is well formed (every
EndOffset lands where the record ends, nested lists end in a null record, compressed arrays
inflate to their declared count), and the scene agrees with the case's oracle: as many control
points as the oracle has, polygon indices within them, skin weights summing to 1 on every control
point, every OO/OP connection naming objects that exist, and the control points, placed by the
mesh model's translation and geometric transform and the unit scale, at the oracle's rest
positions. Prints one line per problem; exits 1 if there is any.
usage: fbx_cases_check.py DIR
"""
import json
import math
import os
import struct
import sys
import zlib

SCALAR = {b'Y': ('<h', 2), b'C': ('<B', 1), b'I': ('<i', 4), b'F': ('<f', 4), b'D': ('<d', 8), b'L': ('<q', 8)}
ARRAY = {b'i': ('i', 4), b'l': ('q', 8), b'f': ('f', 4), b'd': ('d', 8), b'b': ('B', 1)}


class Bad(Exception):
    pass


def parse(data):
    if data[:23] != b'Kaydara FBX Binary  \0\x1a\0':
        raise Bad('not a binary FBX header')
    version = struct.unpack_from('<I', data, 23)[0]
    head = '<QQQB' if version >= 7500 else '<IIIB'  # 64-bit offsets and counts from 7.5
    hlen = struct.calcsize(head)

    def record(pos):
        end, nprops, plen, nlen = struct.unpack_from(head, data, pos)
        if end == 0:
            if data[pos:pos + hlen] != b'\0' * hlen:
                raise Bad('a null record at %d is not all zeros' % pos)
            return None, pos + hlen
        if end > len(data):
            raise Bad('record at %d ends past the file' % pos)
        name = data[pos + hlen:pos + hlen + nlen].decode()
        p = pos + hlen + nlen
        props = []
        for _ in range(nprops):
            code = data[p:p + 1]
            p += 1
            if code in SCALAR:
                fmt, size = SCALAR[code]
                props.append(struct.unpack_from(fmt, data, p)[0])
                p += size
            elif code in (b'S', b'R'):
                n = struct.unpack_from('<I', data, p)[0]
                raw = data[p + 4:p + 4 + n]
                props.append(raw.decode('utf-8', 'replace') if code == b'S' else raw)
                p += 4 + n
            elif code in ARRAY:
                count, enc, clen = struct.unpack_from('<III', data, p)
                raw = data[p + 12:p + 12 + clen]
                fmt, size = ARRAY[code]
                if enc == 1:
                    raw = zlib.decompress(raw)
                elif enc != 0:
                    raise Bad('array encoding %d in %s' % (enc, name))
                if len(raw) != count * size:
                    raise Bad('%s: array of %d holds %d bytes' % (name, count, len(raw)))
                props.append(list(struct.unpack('<%d%s' % (count, fmt), raw)))
                p += 12 + clen
            else:
                raise Bad('unknown property type %r in %s' % (code, name))
        if p != pos + hlen + nlen + plen:
            raise Bad('%s: property list length %d, read %d' % (name, plen, p - pos - hlen - nlen))
        children = []
        if p < end:
            while True:
                child, p = record(p)
                if child is None:
                    break
                children.append(child)
        if p != end:
            raise Bad('%s: EndOffset %d, record ends at %d' % (name, end, p))
        return (name, props, children), end

    top, pos = [], 27
    while True:
        node, pos = record(pos)
        if node is None:
            return top
        top.append(node)


def child(node, name):
    return next((c for c in node[2] if c[0] == name), None)


def p70(node):
    p = child(node, 'Properties70')
    return {c[1][0]: c[1][4:] for c in p[2]} if p else {}


def euler_xyz(deg):
    def rot(axis, a):
        c, s = math.cos(math.radians(a)), math.sin(math.radians(a))
        m = [[1.0 if i == j else 0.0 for j in range(3)] for i in range(3)]
        i, j = [(1, 2), (2, 0), (0, 1)][axis]
        m[i][i], m[i][j], m[j][i], m[j][j] = c, -s, s, c
        return m
    mul = lambda a, b: [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]
    return mul(rot(2, deg[2]), mul(rot(1, deg[1]), rot(0, deg[0])))


def check(fbx_path, oracle_path):
    problems = []
    top = parse(open(fbx_path, 'rb').read())
    oracle = json.load(open(oracle_path))
    mesh_oracle = oracle['meshes'][0]
    n_oracle = mesh_oracle['control_points']
    names = {t[0]: t for t in top}
    for need in ('GlobalSettings', 'Objects', 'Connections'):
        if need not in names:
            return ['no %s' % need]
    unit = p70(names['GlobalSettings']).get('UnitScaleFactor', [1.0])[0]
    objects = {o[1][0]: o for o in names['Objects'][2]}
    meshes = [o for o in objects.values() if o[0] == 'Geometry' and o[1][2] == 'Mesh']
    if len(meshes) != 1:
        return ['%d mesh geometries, expected 1' % len(meshes)]
    geo = meshes[0]
    verts = child(geo, 'Vertices')[1][0]
    n = len(verts) // 3
    if n != n_oracle:
        problems.append('%d control points, the oracle has %d' % (n, n_oracle))
    pvi = child(geo, 'PolygonVertexIndex')[1][0]
    if not pvi or pvi[-1] >= 0:
        problems.append('PolygonVertexIndex does not end a polygon')
    if any((i if i >= 0 else -i - 1) >= n for i in pvi):
        problems.append('a polygon index past the control points')
    total = [0.0] * n
    for o in objects.values():
        if o[0] == 'Deformer' and o[1][2] == 'Cluster':
            for i, w in zip(child(o, 'Indexes')[1][0], child(o, 'Weights')[1][0]):
                total[i] += w
    if any(abs(t - 1.0) > 1e-9 for t in total):
        problems.append('skin weights do not sum to 1 on every control point')
    model_of_geo = None
    for c in names['Connections'][2]:
        kind = c[1][0] if c[0] == 'C' else None
        if kind in ('OO', 'OP'):
            src, dst = c[1][1], c[1][2]
            if src not in objects or (dst != 0 and dst not in objects):
                problems.append('connection %s %s -> %s names a missing object' % (kind, src, dst))
            if src == geo[1][0] and dst in objects and objects[dst][0] == 'Model':
                model_of_geo = objects[dst]
    if model_of_geo is None:
        return problems + ['the mesh geometry is connected to no model']
    props = p70(model_of_geo)
    for moving in ('Lcl Rotation', 'Lcl Scaling', 'RotationPivot', 'ScalingPivot', 'RotationOffset'):
        default = [1.0, 1.0, 1.0] if moving == 'Lcl Scaling' else [0.0, 0.0, 0.0]
        if moving in props and list(props[moving]) != default:
            problems.append('the mesh model has %s, which this check does not place' % moving)
    t = props.get('Lcl Translation', [0.0, 0.0, 0.0])
    gt = props.get('GeometricTranslation', [0.0, 0.0, 0.0])
    gr = euler_xyz(props.get('GeometricRotation', [0.0, 0.0, 0.0]))
    gs = props.get('GeometricScaling', [1.0, 1.0, 1.0])
    rest = mesh_oracle['rest']
    lo = [min(p[a] for p in rest) for a in range(3)]
    hi = [max(p[a] for p in rest) for a in range(3)]
    diag = math.sqrt(sum((h - l) ** 2 for h, l in zip(hi, lo)))
    worst = 0.0
    for k in range(min(n, n_oracle)):
        v = [verts[3 * k + a] * gs[a] for a in range(3)]
        placed = [(sum(gr[a][b] * v[b] for b in range(3)) + gt[a] + t[a]) * unit / 100.0 for a in range(3)]
        worst = max(worst, max(abs(placed[a] - rest[k][a]) for a in range(3)))
    # The oracle's rest comes from Blender's float32 mesh or from numpy: 1e-6 of the diagonal
    # is ten times float32's rounding on these sizes, and far below any misplaced vertex.
    if worst > 1e-6 * diag:
        problems.append('control points are %.3g m from the oracle\'s rest (diagonal %.3g m)' % (worst, diag))
    if oracle['case'] != os.path.basename(fbx_path)[:-4]:
        problems.append('the oracle names case %r' % oracle['case'])
    return problems


def main():
    folder = sys.argv[1]
    cases = sorted(f[:-4] for f in os.listdir(folder) if f.endswith('.fbx'))
    failed = 0
    if not cases:
        print('FAIL: no .fbx in %s' % folder)
        return 1
    for case in cases:
        oracle = os.path.join(folder, case + '.oracle.json')
        if not os.path.exists(oracle):
            problems = ['no oracle']
        else:
            try:
                problems = check(os.path.join(folder, case + '.fbx'), oracle)
            except (Bad, struct.error, zlib.error) as e:
                problems = ['unreadable: %s' % e]
        for p in problems:
            print('FAIL: %s: %s' % (case, p))
        failed += bool(problems)
    print('%d cases, %d failed' % (len(cases), failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
