"""A small binary FBX 7.4 writer for crafted test files (Python 3 standard library only).

Two layers: Node/write_fbx encode the binary record tree; write_scene turns a case description
(see make_cases.py) into the Objects and Connections an FBX 7.4 scene holds. The scene layer
writes only what the cases need, but writes it the way FBX files in the wild lay it out, so a
reader that handles these files has met every record kind it meets in production files.
"""
import math
import struct
import zlib

KTIME_PER_SECOND = 46186158000
FBX_VERSION = 7400  # the default; 7500 and later write 64-bit record headers

# Key flags of AnimationCurve.KeyAttrFlags (interpolation in the low byte, tangent mode above).
KEY_CONSTANT = 0x00000002
KEY_LINEAR = 0x00000004
KEY_CUBIC = 0x00000008
TANGENT_USER = 0x00000400
# Weighted tangents: the key's right tangent and the next key's left tangent carry a weight (the
# share of the time between the two keys the Bezier handle reaches), packed into
# KeyAttrDataFloat's third value as below, each times 9999 (the FBX SDK's divider, under which
# 1/3 is 3333 exactly; docs/fbx_notes.md): right in the low 16 bits, next left in the high 16 bits.
WEIGHTED_RIGHT = 0x01000000
WEIGHTED_NEXT_LEFT = 0x02000000
# KeyAttrDataFloat's third value: both tangent weights at 1/3, as two 16-bit numbers (3333 / 9999)
# packed into an int and stored with the bits of a float.
DEFAULT_WEIGHTS_BITS = 3333 | (3333 << 16)
WEIGHT_DIVIDER = 9999


def ktime(frame, fps):
    """KTime of a (possibly fractional) frame on a timeline of fps frames per second."""
    return int(round(frame * KTIME_PER_SECOND / fps))


class Node:
    """One record: a name, typed properties [(code, value)], and child records."""

    def __init__(self, name, props=(), children=(), block=False):
        self.name = name
        self.props = list(props)
        self.children = list(children)
        self.block = block  # written with a nested list even when it has no children

    def add(self, name, *props):
        child = Node(name, props)
        self.children.append(child)
        return child


# Typed property constructors (FBX type codes).
def I(v): return ('I', v)
def L(v): return ('L', v)
def D(v): return ('D', v)
def F(v): return ('F', v)
def C(v): return ('C', v)
def Y(v): return ('Y', v)
def S(v): return ('S', v)
def R(v): return ('R', v)
def ai(v): return ('i', list(v))
def al(v): return ('l', list(v))
def ad(v): return ('d', list(v))
def af(v): return ('f', list(v))


_SCALAR = {'Y': '<h', 'C': '<B', 'I': '<i', 'F': '<f', 'D': '<d', 'L': '<q'}
_ARRAY = {'i': 'i', 'l': 'q', 'd': 'd', 'f': 'f', 'b': 'B'}


def _encode_prop(code, value, compress):
    if code in _SCALAR:
        return code.encode() + struct.pack(_SCALAR[code], int(value) if code in 'YCIL' else value)
    if code in 'SR':
        data = value.encode('utf-8') if isinstance(value, str) else bytes(value)
        return code.encode() + struct.pack('<I', len(data)) + data
    if code in _ARRAY:
        raw = struct.pack('<%d%s' % (len(value), _ARRAY[code]), *value)
        encoding = 0
        if compress and len(raw) >= 64:
            raw, encoding = zlib.compress(raw, 9), 1
        return code.encode() + struct.pack('<III', len(value), encoding, len(raw)) + raw
    raise ValueError('unknown FBX property type %r' % code)


def _head(version):
    """Record header layout: EndOffset, NumProperties, PropertyListLen (uint32 before 7.5,
    uint64 from 7.5), then the name's length in a byte."""
    return '<QQQB' if version >= 7500 else '<IIIB'


def _encode_node(node, offset, compress, version):
    props = b''.join(_encode_prop(c, v, compress) for c, v in node.props)
    name = node.name.encode()
    head = _head(version)
    null_record = b'\0' * struct.calcsize(head)
    head_len = struct.calcsize(head) + len(name)
    body = bytearray(props)
    pos = offset + head_len + len(props)
    if node.children or node.block or not node.props:
        # A nested list ends in a null record; FBX SDK also writes one for a record without
        # properties, and an empty list ("{ }") where readers expect a scope (AnimationLayer).
        for child in node.children:
            enc = _encode_node(child, pos, compress, version)
            body += enc
            pos += len(enc)
        body += null_record
        pos += len(null_record)
    return struct.pack(head, pos, len(node.props), len(props), len(name)) + name + bytes(body)


def encode_fbx(top_nodes, compress=True, version=FBX_VERSION):
    out = bytearray(b'Kaydara FBX Binary  \0\x1a\0' + struct.pack('<I', version))
    for node in top_nodes:
        out += _encode_node(node, len(out), compress, version)
    out += b'\0' * struct.calcsize(_head(version))
    # Footer: an id block, zero padding to a 16-byte boundary, the version, 120 zeros and a
    # 16-byte tail, with the constant id and tail bytes FBX SDK files end in (readers we know of
    # do not check them, the FBX SDK may).
    out += b'\xfa\xbc\xab\x09\xd0\xc8\xd4\x66\xb1\x76\xfb\x83\x1c\xf7\x26\x7e'
    out += b'\0' * 4
    out += b'\0' * ((16 - len(out) % 16) % 16)
    out += struct.pack('<I', version) + b'\0' * 120
    out += b'\xf8\x5a\x8c\x6a\xde\xf5\xd9\x7e\xec\xe9\x0c\xe3\x75\x8f\x29\x0b'
    return bytes(out)


def write_fbx(path, top_nodes, compress=True, version=FBX_VERSION):
    data = encode_fbx(top_nodes, compress, version)
    with open(path, 'wb') as f:
        f.write(data)
    return len(data)


# ----- Properties70 ---------------------------------------------------------------------------

def P(parent, name, type1, type2, flags, *values):
    """One Properties70 entry: P: name, type, label, flags, values..."""
    return parent.add('P', S(name), S(type1), S(type2), S(flags), *values)


def p_vec(parent, name, v, animatable=False):
    if name.startswith('Lcl '):
        P(parent, name, name, '', 'A', D(v[0]), D(v[1]), D(v[2]))
    else:
        P(parent, name, 'Vector3D', 'Vector', 'A' if animatable else '', D(v[0]), D(v[1]), D(v[2]))


# ----- pure-Python 4x4 transforms (column vectors), for the bind matrices the file stores -----

def mat_mul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(4)) for j in range(4)] for i in range(4)]


def mat_translate(t):
    return [[1, 0, 0, t[0]], [0, 1, 0, t[1]], [0, 0, 1, t[2]], [0, 0, 0, 1]]


def mat_scale(s):
    return [[s[0], 0, 0, 0], [0, s[1], 0, 0], [0, 0, s[2], 0], [0, 0, 0, 1]]


def _axis_rot(axis, deg):
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    m = [[1.0 if i == j else 0.0 for j in range(4)] for i in range(4)]
    a, b = [(1, 2), (2, 0), (0, 1)][axis]
    m[a][a], m[a][b], m[b][a], m[b][b] = c, -s, s, c
    return m


ORDERS = ['XYZ', 'XZY', 'YZX', 'YXZ', 'ZXY', 'ZYX']  # FBX RotationOrder enum 0..5


def mat_euler(deg, order=0):
    """Euler angles in degrees; order XYZ means X is applied first (R = Rz Ry Rx)."""
    m = mat_translate((0, 0, 0))
    for letter in ORDERS[order]:
        axis = 'XYZ'.index(letter)
        m = mat_mul(_axis_rot(axis, deg[axis]), m)
    return m


def mat_inverse_affine(m):
    # the 3x3 part by cofactors: scale may be non-uniform
    a = [[m[i][j] for j in range(3)] for i in range(3)]
    det = (a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
           + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]))
    inv = [[0.0] * 3 for _ in range(3)]
    for i in range(3):
        for j in range(3):
            rows = [x for x in range(3) if x != j]
            cols = [x for x in range(3) if x != i]
            minor = a[rows[0]][cols[0]] * a[rows[1]][cols[1]] - a[rows[0]][cols[1]] * a[rows[1]][cols[0]]
            inv[i][j] = (-1) ** (i + j) * minor / det
    t = [-sum(inv[i][k] * m[k][3] for k in range(3)) for i in range(3)]
    return [inv[0] + [t[0]], inv[1] + [t[1]], inv[2] + [t[2]], [0, 0, 0, 1]]


def local_matrix(p):
    """The FBX SDK chain T Roff Rp Rpre R Rpost^-1 Rp^-1 Soff Sp S Sp^-1 of a model's static values.
    Pre- and post-rotation are always XYZ; only R follows RotationOrder."""
    g = lambda k, d=(0, 0, 0): p.get(k, d)
    neg = lambda v: [-x for x in v]
    chain = [mat_translate(g('T')), mat_translate(g('Roff')), mat_translate(g('Rp')),
             mat_euler(g('Rpre')), mat_euler(g('R'), p.get('order', 0)),
             mat_inverse_affine(mat_euler(g('Rpost'))), mat_translate(neg(g('Rp'))),
             mat_translate(g('Soff')), mat_translate(g('Sp')), mat_scale(g('S', (1, 1, 1))),
             mat_translate(neg(g('Sp')))]
    m = chain[0]
    for x in chain[1:]:
        m = mat_mul(m, x)
    return m


def flat(m):
    """FBX stores a matrix as 16 doubles with the translation in elements 12..14."""
    return [m[r][c] for c in range(4) for r in range(4)]


# ----- scene --------------------------------------------------------------------------------

class _Ids:
    def __init__(self):
        self.next = 1000000

    def __call__(self):
        self.next += 1
        return self.next


def _unscaled(m, s):
    """A TRS matrix without its scale: each of the first three columns divided by s."""
    return [[m[r][c] / s[c] if c < 3 else m[r][c] for c in range(4)] for r in range(4)]


def static_globals(desc):
    """Each model's global matrix from its static (un-animated) values: the bind pose.

    InheritType 1 (RSrs) is the plain product. InheritType 0 (RrSs) and 2 (Rrs) follow the rule
    oracle_numpy.py states (its docstring): the node builds on its parent's world without the
    parent's own scale, its translation scaled componentwise by the scale the parent hands down,
    its scale times the scale of its scale source (the parent for RrSs; the parent's source for
    Rrs). A top-level model is RSrs whatever it says."""
    models = {m['name']: m for m in desc['models']}
    out, unscaled, hands, source = {}, {}, {}, {}

    def glob(name):
        if name not in out:
            m = models[name]
            p = m.get('props', {})
            loc = local_matrix(p)
            s = list(p.get('S', (1, 1, 1)))
            parent = m.get('parent')
            inherit = p.get('inherit', 1) if parent else 1
            if inherit == 1:
                out[name] = mat_mul(glob(parent), loc) if parent else loc
                unscaled[name] = mat_mul(out[parent], _unscaled(loc, s)) if parent else _unscaled(loc, s)
                hands[name], source[name] = s, None
            else:
                glob(parent)
                src = parent if inherit == 0 else source[parent]
                s2 = [s[i] * hands[src][i] for i in range(3)] if src else s
                t2 = [loc[i][3] * hands[parent][i] for i in range(3)]
                rt = _unscaled(loc, s)
                for i in range(3):
                    rt[i][3] = t2[i]
                unscaled[name] = mat_mul(unscaled[parent], rt)
                out[name] = mat_mul(unscaled[name], mat_scale(s2))
                hands[name], source[name] = s2, src
        return out[name]

    for name in models:
        glob(name)
    return out


def _global_settings(desc):
    gs = Node('GlobalSettings')
    gs.add('Version', I(1000))
    p = gs.add('Properties70')
    (up, up_s), (front, front_s), (coord, coord_s) = desc.get('axes', ((1, 1), (2, 1), (0, 1)))
    for name, v in (('UpAxis', up), ('UpAxisSign', up_s), ('FrontAxis', front), ('FrontAxisSign', front_s),
                    ('CoordAxis', coord), ('CoordAxisSign', coord_s), ('OriginalUpAxis', up),
                    ('OriginalUpAxisSign', up_s)):
        P(p, name, 'int', 'Integer', '', I(v))
    P(p, 'UnitScaleFactor', 'double', 'Number', '', D(desc['unit_scale']))
    P(p, 'OriginalUnitScaleFactor', 'double', 'Number', '', D(desc['unit_scale']))
    P(p, 'DefaultCamera', 'KString', '', '', S('Producer Perspective'))
    if desc['time_mode'] is not None:  # None: no TimeMode property at all (the reader's default)
        P(p, 'TimeMode', 'enum', '', '', I(desc['time_mode']))
    P(p, 'TimeProtocol', 'enum', '', '', I(2))
    P(p, 'SnapOnFrameMode', 'enum', '', '', I(0))
    P(p, 'TimeSpanStart', 'KTime', 'Time', '', L(desc['take']['start']))
    P(p, 'TimeSpanStop', 'KTime', 'Time', '', L(desc['take']['stop']))
    P(p, 'CustomFrameRate', 'double', 'Number', '', D(desc.get('custom_fps', -1.0)))
    return gs


def _header(desc):
    h = Node('FBXHeaderExtension')
    h.add('FBXHeaderVersion', I(1003))
    h.add('FBXVersion', I(desc.get('version', FBX_VERSION)))
    h.add('EncryptionType', I(0))
    h.add('Creator', S(desc.get('creator', 'rigscope scripts/fbx/fbx_write.py')))
    return h


def _model(ids, m):
    mid = ids()
    kind = m.get('kind', 'Null')
    node = Node('Model', [L(mid), S(m['name'] + '\0\x01Model'), S(kind)])
    node.add('Version', I(232))
    p = node.add('Properties70')
    pr = m.get('props', {})
    if any(k in pr for k in ('Rpre', 'Rpost', 'order')):
        P(p, 'RotationActive', 'bool', '', '', I(1))
    for key, fbx in (('Roff', 'RotationOffset'), ('Rp', 'RotationPivot'), ('Soff', 'ScalingOffset'),
                     ('Sp', 'ScalingPivot'), ('Rpre', 'PreRotation'), ('Rpost', 'PostRotation'),
                     ('GT', 'GeometricTranslation'), ('GR', 'GeometricRotation'), ('GS', 'GeometricScaling')):
        if key in pr:
            p_vec(p, fbx, pr[key])
    if 'order' in pr:
        P(p, 'RotationOrder', 'enum', '', '', I(pr['order']))
    P(p, 'InheritType', 'enum', '', '', I(pr.get('inherit', 1)))
    p_vec(p, 'Lcl Translation', pr.get('T', (0, 0, 0)))
    p_vec(p, 'Lcl Rotation', pr.get('R', (0, 0, 0)))
    p_vec(p, 'Lcl Scaling', pr.get('S', (1, 1, 1)))
    node.add('Shading', C(1))
    node.add('Culling', S('CullingOff'))
    return mid, node


def pack_weights(right, left):
    """KeyAttrDataFloat's third value as the int whose bits it holds: each weight times 9999,
    rounded (a side given as None keeps 1/3, 3333), right in the low 16 bits."""
    packed = lambda w: 3333 if w is None else int(round(w * WEIGHT_DIVIDER))
    r, l = packed(right), packed(left)
    if not (0 < r < 0x8000 and 0 < l < 0x8000):
        raise ValueError('tangent weights must lie in (0, 3.277)')
    return r | (l << 16)


def _curve(ids, c):
    """AnimationCurve with one attribute slot per key (flags + 4 floats each)."""
    cid = ids()
    node = Node('AnimationCurve', [L(cid), S('\0\x01AnimCurve'), S('')])
    times, values = c['times'], c['values']
    interp = c.get('interp', 'linear')
    interp = [interp] * len(times) if isinstance(interp, str) else interp
    slopes = c.get('slopes', [(0.0, 0.0)] * len(times))  # (right slope, next key's left slope), per second
    # (right weight, next key's left weight) per key, None for a side that is not weighted
    tangent_weights = c.get('weights', [(None, None)] * len(times))
    node.add('Default', D(values[0]))
    node.add('KeyVer', I(4009))
    node.add('KeyTime', al(times))
    node.add('KeyValueFloat', af(values))
    flags, data = [], []
    weights = struct.unpack('<f', struct.pack('<i', DEFAULT_WEIGHTS_BITS))[0]
    for k in range(len(times)):
        flag = {'constant': KEY_CONSTANT, 'linear': KEY_LINEAR, 'cubic': KEY_CUBIC | TANGENT_USER}[interp[k]]
        packed = weights
        right, left = tangent_weights[k]
        if right is not None or left is not None:
            flag |= (WEIGHTED_RIGHT if right is not None else 0) | (WEIGHTED_NEXT_LEFT if left is not None else 0)
            packed = struct.unpack('<f', struct.pack('<i', pack_weights(right, left)))[0]
        flags.append(flag)
        data += [slopes[k][0], slopes[k][1], packed, 0.0]
    node.add('KeyAttrFlags', ai(flags))
    node.add('KeyAttrDataFloat', af(data))
    node.add('KeyAttrRefCount', ai([1] * len(times)))
    return cid, node


def write_scene(desc, path, compress=True):
    """Writes the scene a case description holds; returns the file's size in bytes."""
    ids = _Ids()
    objects = Node('Objects')
    conns = Node('Connections')
    oo = lambda src, dst: conns.add('C', S('OO'), L(src), L(dst))
    op = lambda src, dst, prop: conns.add('C', S('OP'), L(src), L(dst), S(prop))
    counts = {}

    def obj(node):
        objects.children.append(node)
        counts[node.name] = counts.get(node.name, 0) + 1

    model_ids = {}
    for m in desc['models']:
        mid, node = _model(ids, m)
        model_ids[m['name']] = mid
        obj(node)
        if m.get('kind') == 'LimbNode':
            aid = ids()
            attr = Node('NodeAttribute', [L(aid), S(m['name'] + '\0\x01NodeAttribute'), S('LimbNode')])
            attr.add('TypeFlags', S('Skeleton'))
            obj(attr)
            oo(aid, mid)
    for m in desc['models']:
        oo(model_ids[m['name']], model_ids[m['parent']] if m.get('parent') else 0)

    mesh = desc['mesh']
    gid = ids()
    geo = Node('Geometry', [L(gid), S(mesh['name'] + '\0\x01Geometry'), S('Mesh')])
    geo.add('Vertices', ad(x for v in mesh['vertices'] for x in v))
    pvi = []
    for poly in mesh['polygons']:
        pvi += list(poly[:-1]) + [-poly[-1] - 1]
    geo.add('PolygonVertexIndex', ai(pvi))
    geo.add('GeometryVersion', I(124))
    obj(geo)
    oo(gid, model_ids[mesh['model']])

    bind = static_globals(desc)
    if mesh.get('skin'):
        sid = ids()
        skin = Node('Deformer', [L(sid), S('Skin\0\x01Deformer'), S('Skin')])
        skin.add('Version', I(101))
        skin.add('Link_DeformAcuracy', D(50.0))
        if mesh.get('skinning_type'):  # Linear, DualQuaternion, Blend, Rigid (FbxSkin::EType)
            skin.add('SkinningType', S(mesh['skinning_type']))
        if mesh.get('blend_weights'):  # Blend: [(control point, dual-quaternion share)]
            skin.add('Indexes', ai(i for i, _ in mesh['blend_weights']))
            skin.add('BlendWeights', ad(b for _, b in mesh['blend_weights']))
        obj(skin)
        oo(sid, gid)
        for joint, indexes, weights in mesh['skin']:
            kid = ids()
            cl = Node('Deformer', [L(kid), S(joint + '\0\x01SubDeformer'), S('Cluster')])
            cl.add('Version', I(100))
            cl.add('UserData', S(''), S(''))
            cl.add('Indexes', ai(indexes))
            cl.add('Weights', ad(weights))
            # The API's Transform is the mesh's global at bind, but files store it in the joint's
            # bind space (TransformLink^-1 times that global): production files do, and readers
            # (Blender's among them) multiply it back by TransformLink.
            cl.add('Transform', ad(flat(mat_mul(mat_inverse_affine(bind[joint]), bind[mesh['model']]))))
            cl.add('TransformLink', ad(flat(bind[joint])))
            obj(cl)
            oo(kid, sid)
            oo(model_ids[joint], kid)
        pose = Node('Pose', [L(ids()), S('BIND_POSES\0\x01Pose'), S('BindPose')])
        pose.add('Type', S('BindPose'))
        pose.add('Version', I(100))
        posed = [mesh['model']] + [j for j, _, _ in mesh['skin']]
        pose.add('NbPoseNodes', I(len(posed)))
        for name in posed:
            pn = pose.add('PoseNode')
            pn.add('Node', L(model_ids[name]))
            pn.add('Matrix', ad(flat(bind[name])))
        obj(pose)

    channel_ids = {}
    for bs in mesh.get('blendshapes', []):
        bid = ids()
        bnode = Node('Deformer', [L(bid), S(bs['name'] + '\0\x01Deformer'), S('BlendShape')])
        bnode.add('Version', I(100))
        obj(bnode)
        oo(bid, gid)
        for ch in bs['channels']:
            cid = ids()
            cnode = Node('Deformer', [L(cid), S(ch['name'] + '\0\x01SubDeformer'), S('BlendShapeChannel')])
            cnode.add('Version', I(100))
            cnode.add('DeformPercent', D(ch.get('percent', 0.0)))
            # Blender's exporter writes a per-vertex weight of its one shape (percent) where
            # FullWeights stands: a channel's 'full_weights' holds them.
            cnode.add('FullWeights', ad(ch['full_weights'] if 'full_weights' in ch else (sh['full'] for sh in ch['shapes'])))
            P(cnode.add('Properties70'), 'DeformPercent', 'Number', '', 'A', D(ch.get('percent', 0.0)))
            obj(cnode)
            oo(cid, bid)
            channel_ids[ch['name']] = cid
            for sh in ch['shapes']:
                shid = ids()
                snode = Node('Geometry', [L(shid), S(sh['name'] + '\0\x01Geometry'), S('Shape')])
                snode.add('Version', I(100))
                snode.add('Indexes', ai(sh['indexes']))
                snode.add('Vertices', ad(x for d in sh['deltas'] for x in d))
                snode.add('Normals', ad([0.0] * 3 * len(sh['indexes'])))
                obj(snode)
                oo(shid, cid)

    take = desc['take']
    stack_id = ids()
    stack = Node('AnimationStack', [L(stack_id), S(take['name'] + '\0\x01AnimStack'), S('')])
    sp = stack.add('Properties70')
    for name in ('LocalStart', 'LocalStop', 'ReferenceStart', 'ReferenceStop'):
        P(sp, name, 'KTime', 'Time', '', L(take['start'] if 'Start' in name else take['stop']))
    obj(stack)
    layer_id = ids()
    obj(Node('AnimationLayer', [L(layer_id), S('BaseLayer\0\x01AnimLayer'), S('')], block=True))
    oo(layer_id, stack_id)

    # One curve node per animated (object, property), its curves on d|X, d|Y, d|Z.
    groups = {}
    for c in desc.get('curves', []):
        groups.setdefault((c['model'], c['prop']), []).append(c)
    short = {'Lcl Translation': 'T', 'Lcl Rotation': 'R', 'Lcl Scaling': 'S'}
    for (model, prop), curves in groups.items():
        nid = ids()
        cn = Node('AnimationCurveNode', [L(nid), S(short[prop] + '\0\x01AnimCurveNode'), S('')])
        cp = cn.add('Properties70')
        m = next(x for x in desc['models'] if x['name'] == model)
        static = m.get('props', {}).get(short[prop], (1, 1, 1) if prop == 'Lcl Scaling' else (0, 0, 0))
        for a in range(3):
            P(cp, 'd|' + 'XYZ'[a], 'Number', '', 'A', D(static[a]))
        obj(cn)
        oo(nid, layer_id)
        op(nid, model_ids[model], prop)
        for c in curves:
            cid, cnode = _curve(ids, c)
            obj(cnode)
            op(cid, nid, 'd|' + 'XYZ'[c['axis']])
    for c in desc.get('shape_curves', []):
        nid = ids()
        cn = Node('AnimationCurveNode', [L(nid), S('DeformPercent\0\x01AnimCurveNode'), S('')])
        P(cn.add('Properties70'), 'd|DeformPercent', 'Number', '', 'A', D(c['values'][0]))
        obj(cn)
        oo(nid, layer_id)
        op(nid, channel_ids[c['channel']], 'DeformPercent')
        cid, cnode = _curve(ids, c)
        obj(cnode)
        op(cid, nid, 'd|DeformPercent')

    con = desc.get('constraint')
    if con:
        # A Maya-style position constraint. Its property-to-object connection ("PO": a property
        # of the source object feeding an object) has a string where an object id is expected
        # by readers that only know OO and OP.
        kid = ids()
        cnode = Node('Constraint', [L(kid), S(con['name'] + '\0\x01Constraint'), S('Position')])
        cp = cnode.add('Properties70')
        P(cp, 'Weight', 'Number', '', 'A', D(100.0))
        P(cp, 'Active', 'bool', '', '', I(1))
        P(cp, 'AffectX', 'bool', '', '', I(1))
        P(cp, 'AffectY', 'bool', '', '', I(1))
        P(cp, 'AffectZ', 'bool', '', '', I(1))
        P(cp, 'Translation', 'Vector3D', 'Vector', '', D(0), D(0), D(0))
        P(cp, con['source'] + '.Weight', 'Number', '', 'AU', D(100.0))
        obj(cnode)
        oo(kid, 0)
        op(model_ids[con['source']], kid, 'Source (Parent)')
        op(model_ids[con['constrained']], kid, 'Constrained object (Child)')
        conns.add('C', S('PO'), L(kid), S(con['source'] + '.Weight'), L(model_ids[con['source']]))

    defs = Node('Definitions')
    defs.add('Version', I(100))
    defs.add('Count', I(sum(counts.values()) + 1))
    defs.add('ObjectType', S('GlobalSettings')).children.append(Node('Count', [I(1)]))
    for name, n in counts.items():
        defs.add('ObjectType', S(name)).children.append(Node('Count', [I(n)]))

    takes = Node('Takes')
    takes.add('Current', S(take['name']))
    t = takes.add('Take', S(take['name']))
    t.add('FileName', S(take['name'] + '.tak'))
    t.add('LocalTime', L(take['start']), L(take['stop']))
    t.add('ReferenceTime', L(take['start']), L(take['stop']))

    docs = Node('Documents')
    docs.add('Count', I(1))
    d = docs.add('Document', L(ids()), S('Scene'), S('Scene'))
    d.add('RootNode', L(0))
    top = [_header(desc)]
    if 'creator' in desc:  # Blender's exporter also writes the creator as a top-level record
        top.append(Node('Creator', [S(desc['creator'])]))
    top += [_global_settings(desc), docs, Node('References'), defs, objects, conns, takes]
    return write_fbx(path, top, compress, desc.get('version', FBX_VERSION))
