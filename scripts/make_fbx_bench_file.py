# A load-benchmark FBX: a tube of ~25k control points skinned to a 65-joint chain, 600 frames of
# rotation keys on every joint, written with scripts/fbx's writer (from the fbxoracles branch).
#   python3 scripts/make_fbx_bench_file.py OUT.fbx
import math, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'fbx'))
import make_cases
from fbx_write import ktime, write_scene
J, FR = 65, 600
desc = make_cases.base('bench', fps=30, start=0, stop=FR - 1)
verts, polys = make_cases.tube(390, 64, 2.0, 0.25)  # 24,960 control points
joints = ['J%02d' % i for i in range(J)]
ys = [2.0 * i / (J - 1) for i in range(J)]
desc['models'] = [{'name': 'Body', 'kind': 'Mesh'}] + [
    {'name': j, 'kind': 'LimbNode', **({'parent': joints[i - 1]} if i else {}), 'props': {'T': (0, (ys[i] - ys[i - 1]) if i else 0, 0)}}
    for i, j in enumerate(joints)]
desc['mesh'] = {'name': 'Body', 'model': 'Body', 'vertices': verts, 'polygons': polys,
                'skin': make_cases.weights_by_height(verts, ys, joints)}
frames = list(range(FR))
desc['curves'] = [make_cases.keyed(j, 'Lcl Rotation', 2, frames, (lambda f, i=i: 3.0 * math.sin(f / 20.0 + i / 5.0)), 30) for i, j in enumerate(joints)]
desc['frames'] = []
write_scene(desc, sys.argv[1])
