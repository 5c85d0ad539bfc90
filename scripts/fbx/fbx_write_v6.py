"""FBX 6.1 writer for the crafted cases (Python 3 standard library only): a case description of
make_cases.py as the record tree of an FBX 6.1 file, as the FBX SDK of 2006-2011 wrote it:
objects named "Class::Name" rather than numbered, the mesh's geometry inline in its Model,
Properties60, a Skin Deformer with SubDeformer clusters, shapes as Shape children of the mesh
Model (one shape per channel: 6.x has no in-between shapes), and the Takes section holding the
curves inline (Channel "Transform" / "T" / "X", keys as `time,value,mode...`).

    python3 scripts/fbx/fbx_write_v6.py OUT_DIR [CASE...]   # CASE.v6.fbx (binary), CASE.v6.ascii.fbx

The ASCII file is the binary record tree written by fbx_write_ascii.py (6.x: arrays as plain
lists). tests/fbx_cases_v6/ holds both and the ufbx oracle of each (scripts/fbx/README.md).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fbx_write import (C, D, I, L, Node, S, ad, ai, encode_fbx, flat, mat_inverse_affine, mat_mul,  # noqa: E402
                       static_globals)
import fbx_write_ascii  # noqa: E402

VERSION = 6100


def name(cls, n):
    return S(n + '\0\x01' + cls)


def prop(p60, n, type_, flags, *values):
    p60.add('Property', S(n), S(type_), S(flags), *values)


def vec(p60, n, v, type_='Vector3D', flags=''):
    prop(p60, n, type_, flags, D(v[0]), D(v[1]), D(v[2]))


def _model(m, mesh, shapes):
    kind = {'LimbNode': 'Limb'}.get(m.get('kind', 'Null'), m.get('kind', 'Null'))
    node = Node('Model', [name('Model', m['name']), S(kind)])
    node.add('Version', I(232))
    p = node.add('Properties60')
    pr = m.get('props', {})
    for key, fbx in (('Roff', 'RotationOffset'), ('Rp', 'RotationPivot'), ('Soff', 'ScalingOffset'),
                     ('Sp', 'ScalingPivot'), ('Rpre', 'PreRotation'), ('Rpost', 'PostRotation'),
                     ('GT', 'GeometricTranslation'), ('GR', 'GeometricRotation'), ('GS', 'GeometricScaling')):
        if key in pr:
            vec(p, fbx, pr[key])
    if any(k in pr for k in ('Rpre', 'Rpost', 'order')):
        prop(p, 'RotationActive', 'bool', '', I(1))
    if 'order' in pr:
        prop(p, 'RotationOrder', 'enum', '', I(pr['order']))
    prop(p, 'InheritType', 'enum', '', I(pr.get('inherit', 1)))
    vec(p, 'Lcl Translation', pr.get('T', (0, 0, 0)), 'Lcl Translation', 'A+')
    vec(p, 'Lcl Rotation', pr.get('R', (0, 0, 0)), 'Lcl Rotation', 'A+')
    vec(p, 'Lcl Scaling', pr.get('S', (1, 1, 1)), 'Lcl Scaling', 'A+')
    for ch in shapes:
        prop(p, ch['name'], 'Number', 'AU', D(ch.get('percent', 0.0)))
    node.add('MultiLayer', I(0))
    node.add('MultiTake', I(1))
    node.add('Shading', C(ord('Y')))
    node.add('Culling', S('CullingOff'))
    if mesh is not None:
        node.add('Vertices', ad(x for v in mesh['vertices'] for x in v))
        pvi = []
        for poly in mesh['polygons']:
            pvi += list(poly[:-1]) + [-poly[-1] - 1]
        node.add('PolygonVertexIndex', ai(pvi))
        node.add('GeometryVersion', I(124))
        for ch in shapes:
            sh = ch['shapes'][-1]
            s = node.add('Shape', S(ch['name']))
            s.add('Indexes', ai(sh['indexes']))
            s.add('Vertices', ad(x for d in sh['deltas'] for x in d))
            s.add('Normals', ad([0.0] * 3 * len(sh['indexes'])))
    return node


def _keys(c):
    """Key: time,value,mode... (KeyVer 4005): L; C,s (hold this key's value); U,s,right,nextleft,n."""
    interp = c.get('interp', 'linear')
    interp = [interp] * len(c['times']) if isinstance(interp, str) else interp
    slopes = c.get('slopes', [(0.0, 0.0)] * len(c['times']))
    out = []
    for k, (t, v) in enumerate(zip(c['times'], c['values'])):
        out += [L(t), D(v)]
        if interp[k] == 'constant':
            out += [C(ord('C')), C(ord('s'))]
        elif interp[k] == 'cubic':
            out += [C(ord('U')), C(ord('s')), D(slopes[k][0]), D(slopes[k][1]), C(ord('n'))]
        else:
            out += [C(ord('L'))]
    return out


def _channel(parent, label, c, default):
    ch = parent.add('Channel', S(label))
    ch.add('Default', D(default))
    if c is not None:
        ch.add('KeyVer', I(4005))
        ch.add('KeyCount', I(len(c['times'])))
        ch.children.append(Node('Key', _keys(c)))
    return ch


def scene_nodes(desc):
    """The top-level records of the case as FBX 6.1."""
    if any(len(ch['shapes']) > 1 for bs in desc['mesh'].get('blendshapes', []) for ch in bs['channels']):
        raise ValueError('FBX 6 has no in-between shapes: %s' % desc['case'])
    mesh = desc['mesh']
    shapes = [ch for bs in mesh.get('blendshapes', []) for ch in bs['channels']]
    head = Node('FBXHeaderExtension')
    head.add('FBXHeaderVersion', I(1003))
    head.add('FBXVersion', I(VERSION))
    head.add('Creator', S('rigscope scripts/fbx/fbx_write_v6.py'))

    objects = Node('Objects')
    conns = Node('Connections')
    oo = lambda src, dst: conns.add('Connect', S('OO'), src, dst)
    for m in desc['models']:
        is_mesh = m['name'] == mesh['model']
        objects.children.append(_model(m, mesh if is_mesh else None, shapes if is_mesh else []))
        oo(name('Model', m['name']), name('Model', m['parent'] if m.get('parent') else 'Scene'))
    bind = static_globals(desc)
    if mesh.get('skin'):
        skin = objects.add('Deformer', name('Deformer', 'Skin ' + mesh['model']), S('Skin'))
        skin.add('Version', I(100))
        skin.add('MultiLayer', I(0))
        skin.add('Type', S('Skin'))
        skin.add('Properties60')
        skin.add('Link_DeformAcuracy', D(50.0))
        oo(name('Deformer', 'Skin ' + mesh['model']), name('Model', mesh['model']))
        for joint, indexes, weights in mesh['skin']:
            cl = objects.add('Deformer', name('SubDeformer', 'Cluster ' + joint), S('Cluster'))
            cl.add('Version', I(100))
            cl.add('MultiLayer', I(0))
            cl.add('Type', S('Cluster'))
            cl.add('Properties60')
            cl.add('UserData', S(''), S(''))
            cl.add('Indexes', ai(indexes))
            cl.add('Weights', ad(weights))
            cl.add('Transform', ad(flat(mat_mul(mat_inverse_affine(bind[joint]), bind[mesh['model']]))))
            cl.add('TransformLink', ad(flat(bind[joint])))
            oo(name('SubDeformer', 'Cluster ' + joint), name('Deformer', 'Skin ' + mesh['model']))
            oo(name('Model', joint), name('SubDeformer', 'Cluster ' + joint))
        pose = objects.add('Pose', name('Pose', 'BIND_POSES'), S('BindPose'))
        pose.add('Type', S('BindPose'))
        pose.add('Version', I(100))
        posed = [mesh['model']] + [j for j, _, _ in mesh['skin']]
        pose.add('NbPoseNodes', I(len(posed)))
        for n in posed:
            pn = pose.add('PoseNode')
            pn.add('Node', name('Model', n))
            pn.add('Matrix', ad(flat(bind[n])))
    gs = objects.add('GlobalSettings')
    gs.add('Version', I(1000))
    p = gs.add('Properties60')
    (up, up_s), (front, front_s), (coord, coord_s) = desc.get('axes', ((1, 1), (2, 1), (0, 1)))
    for n, v in (('UpAxis', up), ('UpAxisSign', up_s), ('FrontAxis', front), ('FrontAxisSign', front_s),
                 ('CoordAxis', coord), ('CoordAxisSign', coord_s)):
        prop(p, n, 'int', '', I(v))
    prop(p, 'UnitScaleFactor', 'double', '', D(desc['unit_scale']))
    prop(p, 'TimeMode', 'enum', '', I(desc['time_mode']))
    prop(p, 'CustomFrameRate', 'double', '', D(desc.get('custom_fps', -1.0)))

    take = desc['take']
    takes = Node('Takes')
    takes.add('Current', S(take['name']))
    t = takes.add('Take', S(take['name']))
    t.add('FileName', S(take['name'] + '.tak'))
    t.add('LocalTime', L(take['start']), L(take['stop']))
    t.add('ReferenceTime', L(take['start']), L(take['stop']))
    by_model = {}
    for c in desc.get('curves', []):
        by_model.setdefault(c['model'], {}).setdefault(c['prop'], {})[c['axis']] = c
    short = {'Lcl Translation': 'T', 'Lcl Rotation': 'R', 'Lcl Scaling': 'S'}
    for m in desc['models']:
        anim = by_model.get(m['name'], {})
        shape_curves = [c for c in desc.get('shape_curves', []) if m['name'] == mesh['model']]
        if not anim and not shape_curves:
            continue
        tm = t.add('Model', name('Model', m['name']))
        tm.add('Version', D(1.1))
        if anim:
            tr = tm.add('Channel', S('Transform'))
            for p_name, letter in short.items():
                if p_name not in anim:
                    continue
                static = m.get('props', {}).get(letter, (1, 1, 1) if letter == 'S' else (0, 0, 0))
                pc = tr.add('Channel', S(letter))
                for axis in range(3):
                    _channel(pc, 'XYZ'[axis], anim[p_name].get(axis), static[axis])
        for c in shape_curves:
            _channel(tm, c['channel'], c, c['values'][0])
    return [head, objects, conns, takes]


def write(desc, out_dir):
    data = encode_fbx(scene_nodes(desc), compress=False, version=VERSION)
    base = os.path.join(out_dir, desc['case'])
    with open(base + '.v6.fbx', 'wb') as f:
        f.write(data)
    with open(base + '.v6.ascii.fbx', 'wb') as f:
        f.write(fbx_write_ascii.to_ascii(data))


def main(argv):
    import make_cases
    out = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..', 'tests', 'fbx_cases_v6')
    names = argv[2:] or V6_CASES
    os.makedirs(out, exist_ok=True)
    for n in names:
        if n == 'shape_channel':
            # inbetween_shapes with its 100 % shape only: one shape per channel, as FBX 6 holds them.
            desc = make_cases.variant(make_cases.inbetween_shapes())
            desc['case'] = desc['take']['name'] = 'shape_channel'
        else:
            desc = make_cases.CASES[n]()
        write(desc, out)
        print(n)


# The crafted cases that FBX 6.1 can hold (inbetween_shapes needs in-between shapes: shape_channel
# is its one-shape variant; version_7500 is about 7.5's record headers; constraint_connection
# about 7.x's PO connections).
V6_CASES = ['take_start_50', 'keys_outside_take', 'coinciding_control_points', 'pivots_prepost', 'rotation_orders',
            'units_cm', 'unit_scale_2_54', 'geometric_transform', 'interpolation', 'custom_frame_rate', 'shape_channel']

if __name__ == '__main__':
    main(sys.argv)
