#!/usr/bin/env python3
"""Small glTF (GLB, or .gltf with an embedded buffer) edits and reads for tests/cli/check/rigci.sh, independent of rigscope's own reader.

  weights IN OUT JOINT FACTOR   scale JOINT's skin weights by FACTOR (others unchanged)
  move IN OUT NODE DX DY DZ     add (DX,DY,DZ) to NODE's translation keys (the clip moves the joint)
  weight IN JOINT               JSON list: per vertex, JOINT's normalised weight
  rom_angles ROM LISTING        check each sweep's keys against the listing (exit 1 on mismatch)
  rom_at ROM FPS FRAME          "JOINT AXIS DEGREES": the one joint the clip turns away from rest at
                                FRAME (time FRAME / FPS), about which local axis, by how much
"""
import base64, json, math, struct, sys

COMP = {5120: ('b', 1), 5121: ('B', 1), 5122: ('h', 2), 5123: ('H', 2), 5125: ('I', 4), 5126: ('f', 4)}
WIDTH = {'SCALAR': 1, 'VEC2': 2, 'VEC3': 3, 'VEC4': 4, 'MAT4': 16}


def load(path):
    """(binary data, JSON, offset of buffer 0 in the data); .gltf with buffer 0 as a data URI too."""
    raw = open(path, 'rb').read()
    if raw[:4] != b'glTF':
        j = json.loads(raw)
        uri = j['buffers'][0]['uri']
        return bytearray(base64.b64decode(uri.split(',', 1)[1])), j, 0
    d = bytearray(raw)
    jl = struct.unpack_from('<I', d, 12)[0]
    return d, json.loads(d[20:20 + jl]), 20 + jl + 8


def save(path, d, j, src):
    # Edits are in the binary data only: every offset stays as it was.
    if open(src, 'rb').read(4) == b'glTF':
        open(path, 'wb').write(bytes(d))
    else:
        j['buffers'][0]['uri'] = 'data:application/octet-stream;base64,' + base64.b64encode(bytes(d)).decode()
        open(path, 'w').write(json.dumps(j))


def slots(j, bin_at, acc_index):
    """(byte offset, format) of every element's components."""
    a = j['accessors'][acc_index]
    bv = j['bufferViews'][a['bufferView']]
    fmt, size = COMP[a['componentType']]
    w = WIDTH[a['type']]
    stride = bv.get('byteStride', size * w)
    base = bin_at + bv.get('byteOffset', 0) + a.get('byteOffset', 0)
    return [[(base + i * stride + c * size, fmt) for c in range(w)] for i in range(a['count'])]


def read(d, s):
    return [struct.unpack_from('<' + f, d, o)[0] for o, f in s]


def joint_index(j, name):
    skin = j['skins'][0]
    if name.startswith('#'):  # by its place in the skin, for files whose nodes have no names
        return int(name[1:])
    for k, n in enumerate(skin['joints']):
        if j['nodes'][n].get('name') == name:
            return k
    sys.exit('no joint ' + name)


def skin_attrs(j):
    for m in j['meshes']:
        for p in m['primitives']:
            yield p['attributes']['JOINTS_0'], p['attributes']['WEIGHTS_0']


def main():
    cmd = sys.argv[1]
    if cmd == 'weights':
        d, j, b = load(sys.argv[2])
        k, factor = joint_index(j, sys.argv[4]), float(sys.argv[5])
        for ja, wa in skin_attrs(j):
            for js, ws in zip(slots(j, b, ja), slots(j, b, wa)):
                for (jo, jf), (wo, wf) in zip(js, ws):
                    if struct.unpack_from('<' + jf, d, jo)[0] == k:
                        struct.pack_into('<f', d, wo, struct.unpack_from('<f', d, wo)[0] * factor)
        save(sys.argv[3], d, j, sys.argv[2])
    elif cmd == 'move':
        d, j, b = load(sys.argv[2])
        name, delta = sys.argv[4], [float(x) for x in sys.argv[5:8]]
        node = next(i for i, n in enumerate(j['nodes']) if n.get('name') == name)
        for a in j.get('animations', []):
            for ch in a['channels']:
                if ch['target']['node'] == node and ch['target']['path'] == 'translation':
                    for s in slots(j, b, a['samplers'][ch['sampler']]['output']):
                        for c, (o, f) in enumerate(s):
                            struct.pack_into('<f', d, o, struct.unpack_from('<f', d, o)[0] + delta[c])
        save(sys.argv[3], d, j, sys.argv[2])
    elif cmd == 'weight':
        d, j, b = load(sys.argv[2])
        k = joint_index(j, sys.argv[3])
        out = []
        for ja, wa in skin_attrs(j):
            for js, ws in zip(slots(j, b, ja), slots(j, b, wa)):
                jv, wv = read(d, js), read(d, ws)
                total = sum(wv)
                out.append(sum(w for jj, w in zip(jv, wv) if jj == k) / total if total > 0 else 0.0)
        print(json.dumps(out))
    elif cmd == 'rom_angles':
        d, j, b = load(sys.argv[2])
        listing = json.load(open(sys.argv[3]))
        fps, angle = listing['fps'], listing['angle_deg']
        names = [n.get('name') for n in j['nodes']]
        anim = j['animations'][0]
        checked = 0
        for s in listing['sweeps']:
            node = names.index(s['joint'])
            ch = next(c for c in anim['channels'] if c['target']['node'] == node and c['target']['path'] == 'rotation')
            smp = anim['samplers'][ch['sampler']]
            times = [read(d, x)[0] for x in slots(j, b, smp['input'])]
            quats = [read(d, x) for x in slots(j, b, smp['output'])]
            rest = j['nodes'][node].get('rotation', [0, 0, 0, 1])
            axis = 'XYZ'.index(s['axis'])
            for frame, want in ((s['first'], 0), (s['plus_frame'], angle), (s['minus_frame'], -angle), (s['last'], 0)):
                k = min(range(len(times)), key=lambda i: abs(times[i] - frame / fps))
                if abs(times[k] - frame / fps) > 1e-6:
                    sys.exit('%s axis %s: no key at frame %d' % (s['joint'], s['axis'], frame))
                # rest^-1 * q: the rotation about the joint's own axis.
                rx, ry, rz, rw = -rest[0], -rest[1], -rest[2], rest[3]
                qx, qy, qz, qw = quats[k]
                lw = rw * qw - rx * qx - ry * qy - rz * qz
                lv = [rw * qx + rx * qw + ry * qz - rz * qy, rw * qy - rx * qz + ry * qw + rz * qx, rw * qz + rx * qy - ry * qx + rz * qw]
                got = math.degrees(2 * math.atan2(lv[axis], lw))
                off_axis = max(abs(lv[c]) for c in range(3) if c != axis)
                # float32 quaternions: components to ~6e-8, an angle to ~1e-5 degrees.
                if abs(got - want) > 1e-4 or off_axis > 1e-6:
                    sys.exit('%s axis %s frame %d: %.6f deg (want %g), off-axis %.2e' % (s['joint'], s['axis'], frame, got, want, off_axis))
                checked += 1
        print('%d keys checked' % checked)
    elif cmd == 'rom_at':
        d, j, b = load(sys.argv[2])
        t = int(sys.argv[4]) / float(sys.argv[3])
        turned = []
        for ch in j['animations'][0]['channels']:
            if ch['target']['path'] != 'rotation':
                continue
            node = ch['target']['node']
            smp = j['animations'][0]['samplers'][ch['sampler']]
            times = [read(d, x)[0] for x in slots(j, b, smp['input'])]
            quats = [read(d, x) for x in slots(j, b, smp['output'])]
            rest = j['nodes'][node].get('rotation', [0, 0, 0, 1])

            def local(q):  # rest^-1 * q as a rotation vector, degrees
                rx, ry, rz, rw = -rest[0], -rest[1], -rest[2], rest[3]
                qx, qy, qz, qw = q
                lw = rw * qw - rx * qx - ry * qy - rz * qz
                lv = [rw * qx + rx * qw + ry * qz - rz * qy, rw * qy - rx * qz + ry * qw + rz * qx, rw * qz + rx * qy - ry * qx + rz * qw]
                n = math.sqrt(sum(c * c for c in lv))
                return [0.0] * 3 if n == 0 else [math.degrees(2 * math.atan2(n, lw)) * c / n for c in lv]

            k = max([i for i in range(len(times)) if times[i] <= t + 1e-7] or [0])
            k2 = min(k + 1, len(times) - 1)
            u = 0.0 if k2 == k else min(max((t - times[k]) / (times[k2] - times[k]), 0.0), 1.0)
            # LINEAR rotation keys about one fixed axis: the angle is linear in time between keys.
            a, c = local(quats[k]), local(quats[k2])
            v = [a[i] + u * (c[i] - a[i]) for i in range(3)]
            if max(abs(x) for x in v) > 1e-4:
                axis = max(range(3), key=lambda i: abs(v[i]))
                turned.append('%s %s %.4f' % (j['nodes'][node].get('name', '#%d' % node), 'XYZ'[axis], v[axis]))
        if len(turned) != 1:
            sys.exit('frame %s: %d joints away from rest: %s' % (sys.argv[4], len(turned), turned))
        print(turned[0])
    else:
        sys.exit(__doc__)


main()
