#!/usr/bin/env python3
"""Made rigs and a numpy oracle for tests/cli/intersect/intersect.sh, independent of rigscope's code.

  arm OUT.glb                  an arm (a box tube skinned to Shoulder) that swings down through a
                               torso (a static box, a second mesh) over frames 0..24 at 24 fps
  oracle GLB FRAMES OUT.csv    skin the GLB in numpy at frame numbers FRAMES (comma-separated, time
                               FRAME/24), test every face pair by brute force (faces of one mesh that
                               share a vertex position at rest are neighbours) and write the CSV
                               intersect writes: frame,mesh_a,face_a,mesh_b,face_b,joint
  angle GLB NODE FRAMES        per frame, the angle (degrees) NODE's animated rotation turns from its rest
                               and a column sure: 0 for a pair within 1e-6 m of touching
  compare ORACLE.csv CLI.csv   exit 1 unless the CLI has every sure pair, none the oracle lacks, the same joints
  seams GLB CSV                "SHARED TOTAL": pairs of CSV whose faces share a vertex position at rest
                               (across a UV seam: neighbours after the weld), and all pairs
"""
import csv, json, math, struct, sys
import numpy as np

COMP = {5120: np.int8, 5121: np.uint8, 5122: np.int16, 5123: np.uint16, 5125: np.uint32, 5126: np.float32}
WIDTH = {'SCALAR': 1, 'VEC2': 2, 'VEC3': 3, 'VEC4': 4, 'MAT4': 16}
FPS = 24.0
# Pairs this close to touching (metres) may fall either way: positions are skinned in single precision.
TOUCH = 1e-6


def load(path):
    d = open(path, 'rb').read()
    jl = struct.unpack_from('<I', d, 12)[0]
    j = json.loads(d[20:20 + jl])
    bl = struct.unpack_from('<I', d, 20 + jl)[0]
    return j, d[20 + jl + 8:20 + jl + 8 + bl]


def accessor(j, blob, i):
    a = j['accessors'][i]
    v = j['bufferViews'][a['bufferView']]
    dt = np.dtype(COMP[a['componentType']])
    w = WIDTH[a['type']]
    stride = v.get('byteStride', dt.itemsize * w)
    base = v.get('byteOffset', 0) + a.get('byteOffset', 0)
    out = np.empty((a['count'], w), dt)
    for k in range(a['count']):
        out[k] = np.frombuffer(blob, dt, w, base + k * stride)
    if a.get('normalized') and dt != np.float32:
        out = out.astype(np.float64) / np.iinfo(dt).max
    return out


def quat_matrix(q):
    x, y, z, w = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def slerp(a, b, t):
    d = float(np.dot(a, b))
    if d < 0:
        b, d = -b, -d
    if d > 0.9995:
        q = a + t * (b - a)
        return q / np.linalg.norm(q)
    th = math.acos(d)
    return (math.sin((1 - t) * th) * a + math.sin(t * th) * b) / math.sin(th)


def sample(j, blob, time):
    """Per node, (translation, rotation, scale) at `time` from the first animation (LINEAR)."""
    trs = [[np.array(n.get('translation', [0, 0, 0]), float), np.array(n.get('rotation', [0, 0, 0, 1]), float),
            np.array(n.get('scale', [1, 1, 1]), float)] for n in j['nodes']]
    for ch in (j.get('animations') or [{}])[0].get('channels', []):
        s = j['animations'][0]['samplers'][ch['sampler']]
        t = accessor(j, blob, s['input'])[:, 0].astype(float)
        v = accessor(j, blob, s['output']).astype(float)
        k = int(np.searchsorted(t, time, side='right')) - 1
        if k < 0:
            val = v[0]
        elif k >= len(t) - 1:
            val = v[-1]
        else:
            u = (time - t[k]) / (t[k + 1] - t[k])
            val = slerp(v[k], v[k + 1], u) if ch['target']['path'] == 'rotation' else v[k] + u * (v[k + 1] - v[k])
        trs[ch['target']['node']][{'translation': 0, 'rotation': 1, 'scale': 2}[ch['target']['path']]] = val
    return trs


def world_matrices(j, trs):
    parent = {c: i for i, n in enumerate(j['nodes']) for c in n.get('children', [])}
    out = {}

    def world(i):
        if i not in out:
            m = np.eye(4)
            m[:3, :3] = quat_matrix(trs[i][1]) @ np.diag(trs[i][2])
            m[:3, 3] = trs[i][0]
            out[i] = world(parent[i]) @ m if i in parent else m
        return out[i]
    for i in range(len(j['nodes'])):
        world(i)
    return out


def meshes(j, blob):
    """Per mesh node: (name, rest positions float32, faces (F,3), joints, weights, node index, skin)."""
    out = []
    for ni, n in enumerate(j['nodes']):
        if 'mesh' not in n:
            continue
        m = j['meshes'][n['mesh']]
        pos, faces, jo, we, base = [], [], [], [], 0
        for p in m['primitives']:
            a = p['attributes']
            x = accessor(j, blob, a['POSITION']).astype(np.float32)
            pos.append(x)
            faces.append(accessor(j, blob, p['indices']).reshape(-1, 3).astype(np.int64) + base)
            if 'JOINTS_0' in a:
                jo.append(accessor(j, blob, a['JOINTS_0']).astype(np.int64))
                we.append(accessor(j, blob, a['WEIGHTS_0']).astype(np.float64))
            base += len(x)
        out.append((m.get('name', ''), np.concatenate(pos), np.concatenate(faces),
                    np.concatenate(jo) if jo else None, np.concatenate(we) if we else None, ni, n.get('skin')))
    return out


def deform(j, blob, mesh, time):
    name, x, faces, jo, we, ni, skin = mesh
    w = world_matrices(j, sample(j, blob, time))
    xh = np.c_[x.astype(np.float64), np.ones(len(x))]
    if skin is None:
        return (xh @ w[ni].T)[:, :3]
    s = j['skins'][skin]
    ibm = accessor(j, blob, s['inverseBindMatrices']).astype(np.float64).reshape(-1, 4, 4).transpose(0, 2, 1)
    mats = np.stack([w[jn] @ ibm[k] for k, jn in enumerate(s['joints'])])
    we = we / we.sum(1, keepdims=True)
    out = np.zeros((len(x), 3))
    for k in range(jo.shape[1]):
        out += we[:, k:k + 1] * np.einsum('vij,vj->vi', mats[jo[:, k]], xh)[:, :3]
    return out


def crossing(P, Q):
    """Per pair, how surely triangles P[i] and Q[i] cross: the least of how far each reaches
    through the other's plane on its far side (metres) and how far the intervals where each meets
    the other's plane overlap along the planes' common line. Positive: they cross; within 1e-6 of
    zero: they touch, as near as single precision tells."""
    nP = np.cross(P[:, 1] - P[:, 0], P[:, 2] - P[:, 0])
    nQ = np.cross(Q[:, 1] - Q[:, 0], Q[:, 2] - Q[:, 0])
    line = np.cross(nP, nQ)  # one direction for both intervals
    with np.errstate(divide='ignore', invalid='ignore'):
        line = line / np.linalg.norm(line, axis=1, keepdims=True)

    def interval(A, nb, ob):
        with np.errstate(divide='ignore', invalid='ignore'):
            d = np.einsum('nkc,nc->nk', A - ob[:, None], nb / np.linalg.norm(nb, axis=1, keepdims=True))
        lo = np.full(len(A), np.inf)
        hi = np.full(len(A), -np.inf)
        for i in range(3):
            k = (i + 1) % 3
            m = (d[:, i] < 0) != (d[:, k] < 0)
            with np.errstate(divide='ignore', invalid='ignore'):
                x = A[:, i] + (A[:, k] - A[:, i]) * (d[:, i] / (d[:, i] - d[:, k]))[:, None]
            t = np.einsum('nc,nc->n', x, line)
            lo = np.where(m, np.minimum(lo, t), lo)
            hi = np.where(m, np.maximum(hi, t), hi)
        return lo, hi, np.minimum(d.max(1), -d.min(1))
    a0, a1, sa = interval(P, nQ, Q[:, 0])
    b0, b1, sb = interval(Q, nP, P[:, 0])
    out = np.minimum(np.minimum(a1, b1) - np.maximum(a0, b0), np.minimum(sa, sb))
    return np.nan_to_num(out, nan=-np.inf)


def weld_ids(x):
    ids, seen = np.empty(len(x), np.int64), {}
    for i, p in enumerate(map(tuple, x)):
        ids[i] = seen.setdefault(p, len(seen))
    return ids


def heaviest(mesh, j, v):
    """(weight, node) of vertex v's heaviest influence, the first on a tie; (0, None) unskinned."""
    _, _, _, jo, we, _, skin = mesh
    if skin is None:
        return 0.0, None
    best, node = 0.0, None
    for k in range(jo.shape[1]):
        if we[v, k] > best:
            best, node = we[v, k], j['skins'][skin]['joints'][jo[v, k]]
    return best, node


def oracle(path, frames, out):
    j, blob = load(path)
    ms = meshes(j, blob)
    welded = [weld_ids(m[1]) for m in ms]
    rows = []
    for f in frames:
        X = [deform(j, blob, m, f / FPS) for m in ms]
        for a in range(len(ms)):
            for b in range(a, len(ms)):
                Fa, Fb = ms[a][2], ms[b][2]
                ia, ib = np.meshgrid(np.arange(len(Fa)), np.arange(len(Fb)), indexing='ij')
                ia, ib = ia.ravel(), ib.ravel()
                keep = ia < ib if a == b else np.ones(len(ia), bool)
                if a == b:  # neighbours: a shared vertex after the weld
                    wa, wb = welded[a][Fa[ia]], welded[a][Fb[ib]]
                    keep &= ~(wa[:, :, None] == wb[:, None, :]).any((1, 2))
                ia, ib = ia[keep], ib[keep]
                P, Q = X[a][Fa[ia]], X[b][Fb[ib]]
                box = np.all((P.min(1) < Q.max(1) + TOUCH) & (Q.min(1) < P.max(1) + TOUCH), 1)
                ia, ib = ia[box], ib[box]
                depth = crossing(X[a][Fa[ia]], X[b][Fb[ib]])
                hit = depth > -TOUCH
                for fa, fb, dp in zip(ia[hit], ib[hit], depth[hit]):
                    best, node = 0.0, None
                    for mi, fi in ((a, fa), (b, fb)):
                        for v in ms[mi][2][fi]:
                            w, n = heaviest(ms[mi], j, v)
                            if w > best:
                                best, node = w, n
                    rows.append((f, ms[a][0], int(fa), ms[b][0], int(fb), j['nodes'][node]['name'] if node is not None else '',
                                 int(dp > TOUCH)))
    with open(out, 'w', newline='') as fh:
        w = csv.writer(fh, lineterminator='\n')
        w.writerow(['frame', 'mesh_a', 'face_a', 'mesh_b', 'face_b', 'joint', 'sure'])
        w.writerows(sorted(rows, key=lambda r: (r[0], r[1], r[2], r[3], r[4])))


def angle(path, node, frames):
    j, blob = load(path)
    ni = next(i for i, n in enumerate(j['nodes']) if n.get('name') == node)
    rest = np.array(j['nodes'][ni].get('rotation', [0, 0, 0, 1]), float)
    for f in frames:
        q = sample(j, blob, f / FPS)[ni][1]
        print(f, round(math.degrees(2 * math.acos(min(1.0, abs(float(np.dot(q, rest)))))), 3))


# ---- the made arm and torso ----------------------------------------------------------------

def box(lo, hi):
    (x0, y0, z0), (x1, y1, z1) = lo, hi
    v = [(x0, y0, z0), (x1, y0, z0), (x1, y1, z0), (x0, y1, z0), (x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1)]
    f = [(0, 2, 1), (0, 3, 2), (4, 5, 6), (4, 6, 7), (0, 1, 5), (0, 5, 4), (3, 7, 6), (3, 6, 2), (0, 4, 7), (0, 7, 3), (1, 2, 6), (1, 6, 5)]
    return v, f


def tube(x0, x1, y, r, segments):
    """A square tube along x from x0 to x1 around (y, 0), closed at both ends."""
    v, f = [], []
    for s in range(segments + 1):
        x = x0 + (x1 - x0) * s / segments
        v += [(x, y - r, -r), (x, y + r, -r), (x, y + r, r), (x, y - r, r)]
    for s in range(segments):
        a, b = 4 * s, 4 * s + 4
        for k in range(4):
            k1 = (k + 1) % 4
            f += [(a + k, b + k, b + k1), (a + k, b + k1, a + k1)]
    f += [(0, 2, 1), (0, 3, 2)]
    e = 4 * segments
    f += [(e, e + 1, e + 2), (e, e + 2, e + 3)]
    return v, f


def write_glb(path, parts, nodes, skins, anim):
    """parts: list of (name, positions, faces, joints or None, weights or None)."""
    blob, views, accs = bytearray(), [], []

    def add(arr, ctype, typ, target=None, minmax=False):
        arr = np.ascontiguousarray(arr)
        while len(blob) % 4:
            blob.append(0)
        views.append({'buffer': 0, 'byteOffset': len(blob), 'byteLength': arr.nbytes, **({'target': target} if target else {})})
        blob.extend(arr.tobytes())
        a = {'bufferView': len(views) - 1, 'componentType': ctype, 'count': len(arr), 'type': typ}
        if minmax:
            a['min'], a['max'] = arr.min(0).tolist(), arr.max(0).tolist()
        accs.append(a)
        return len(accs) - 1
    meshes_json = []
    for name, pos, faces, jo, we in parts:
        attrs = {'POSITION': add(np.array(pos, np.float32), 5126, 'VEC3', 34962, True)}
        if jo is not None:
            attrs['JOINTS_0'] = add(np.array(jo, np.uint16), 5123, 'VEC4', 34962)
            attrs['WEIGHTS_0'] = add(np.array(we, np.float32), 5126, 'VEC4', 34962)
        idx = add(np.array(faces, np.uint32).ravel(), 5125, 'SCALAR', 34963)
        meshes_json.append({'name': name, 'primitives': [{'attributes': attrs, 'indices': idx}]})
    for s in skins:
        s['inverseBindMatrices'] = add(np.array(s.pop('ibm'), np.float32).reshape(-1, 16), 5126, 'MAT4')
    for smp in anim['samplers']:
        smp['input'] = add(np.array(smp.pop('times'), np.float32).reshape(-1, 1), 5126, 'SCALAR', minmax=True)
        values = np.array(smp.pop('values'), np.float32)
        smp['output'] = add(values, 5126, {3: 'VEC3', 4: 'VEC4'}[values.shape[1]])
        smp['interpolation'] = 'LINEAR'
    doc = {'asset': {'version': '2.0'}, 'scene': 0, 'scenes': [{'nodes': [i for i, n in enumerate(nodes) if n.pop('root', False)]}],
           'nodes': nodes, 'meshes': meshes_json, 'skins': skins, 'animations': [anim], 'accessors': accs, 'bufferViews': views,
           'buffers': [{'byteLength': len(blob)}]}
    js = json.dumps(doc).encode()
    js += b' ' * (-len(js) % 4)
    while len(blob) % 4:
        blob.append(0)
    total = 12 + 8 + len(js) + 8 + len(blob)
    with open(path, 'wb') as fh:
        fh.write(struct.pack('<III', 0x46546C67, 2, total) + struct.pack('<II', len(js), 0x4E4F534A) + js +
                 struct.pack('<II', len(blob), 0x004E4942) + bytes(blob))


def make_arm(path):
    torso_v, torso_f = box((-0.5, 0.0, -0.3), (0.5, 2.0, 0.3))
    arm_v, arm_f = tube(0.7, 1.7, 1.8, 0.1, 4)
    ibm = np.eye(4)
    ibm[:3, 3] = (-0.7, -1.8, 0)
    half = math.radians(-150) / 2
    nodes = [{'name': 'Torso', 'mesh': 0, 'root': True},
             {'name': 'Shoulder', 'translation': [0.7, 1.8, 0], 'root': True},
             {'name': 'Arm', 'mesh': 1, 'skin': 0, 'root': True}]
    skins = [{'name': 'ArmRig', 'joints': [1], 'ibm': [ibm.T.ravel()]}]
    anim = {'name': 'Swing', 'samplers': [{'times': [0, 1], 'values': [[0, 0, 0, 1], [0, 0, math.sin(half), math.cos(half)]]}],
            'channels': [{'sampler': 0, 'target': {'node': 1, 'path': 'rotation'}}]}
    parts = [('Torso', torso_v, torso_f, None, None),
             ('Arm', arm_v, arm_f, [(0, 0, 0, 0)] * len(arm_v), [(1, 0, 0, 0)] * len(arm_v))]
    write_glb(path, parts, nodes, skins, anim)


def make_flatten(path):
    """Two separate triangles in z = 0 skinned to one joint whose x scale goes linearly from 1 at
    0 s to 0 at 1 s: at 24 fps both triangles have zero area at frame 24 (their corners (0, y)
    and (1, y) meet), and at no other frame."""
    v = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 2, 0), (1, 2, 0), (0, 3, 0)]
    f = [(0, 1, 2), (3, 4, 5)]
    nodes = [{'name': 'Squash', 'root': True}, {'name': 'Sheet', 'mesh': 0, 'skin': 0, 'root': True}]
    skins = [{'name': 'SquashRig', 'joints': [0], 'ibm': [np.eye(4).ravel()]}]
    anim = {'name': 'Flatten', 'samplers': [{'times': [0, 1], 'values': [[1, 1, 1], [0, 1, 1]]}],
            'channels': [{'sampler': 0, 'target': {'node': 0, 'path': 'scale'}}]}
    write_glb(path, [('Sheet', v, f, [(0, 0, 0, 0)] * len(v), [(1, 0, 0, 0)] * len(v))], nodes, skins, anim)


def compare(oracle_csv, got_csv):
    """Exit 1 unless the CLI's rows hold every sure pair of the oracle, no pair the oracle did not
    find at all, and the oracle's joint for each; prints what was compared."""
    key = lambda r: (r['frame'], r['mesh_a'], r['face_a'], r['mesh_b'], r['face_b'])
    want = {key(r): r for r in csv.DictReader(open(oracle_csv))}
    got = {key(r): r for r in csv.DictReader(open(got_csv))}
    missing = [k for k, r in want.items() if r['sure'] == '1' and k not in got]
    extra = [k for k in got if k not in want]
    joints = [k for k in got if k in want and got[k]['joint'] != want[k]['joint']]
    touching = sum(1 for r in want.values() if r['sure'] == '0')
    print(f"{len(got)} pairs, oracle {len(want)} ({touching} within {TOUCH} m of touching); missing {missing[:5]}, "
          f"extra {extra[:5]}, other joint {joints[:5]}")
    sys.exit(1 if missing or extra or joints else 0)


def seams(path, pairs_csv):
    """Prints how many of CSV's pairs share a vertex position at rest (the weld's neighbours:
    across a UV seam), then how many pairs there are."""
    j, blob = load(path)
    ms = {m[0]: m for m in meshes(j, blob)}
    shared = total = 0
    for r in csv.DictReader(open(pairs_csv)):
        total += 1
        if r['mesh_a'] != r['mesh_b']:
            continue
        m = ms[r['mesh_a']]
        pa = {tuple(m[1][v]) for v in m[2][int(r['face_a'])]}
        pb = {tuple(m[1][v]) for v in m[2][int(r['face_b'])]}
        shared += bool(pa & pb)
    print(shared, total)


if __name__ == '__main__':
    cmd = sys.argv[1]
    if cmd == 'arm':
        make_arm(sys.argv[2])
    elif cmd == 'flatten':
        make_flatten(sys.argv[2])
    elif cmd == 'oracle':
        oracle(sys.argv[2], [int(f) for f in sys.argv[3].split(',')], sys.argv[4])
    elif cmd == 'angle':
        angle(sys.argv[2], sys.argv[3], [int(f) for f in sys.argv[4].split(',')])
    elif cmd == 'compare':
        compare(sys.argv[2], sys.argv[3])
    elif cmd == 'seams':
        seams(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
