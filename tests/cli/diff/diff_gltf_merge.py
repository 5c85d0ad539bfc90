#!/usr/bin/env python3
"""Joins .gltf files (embedded buffers) into one scene, independent of rigscope's reader.

  merge OUT IN1 IN2 ...   every node, mesh, skin, accessor and buffer of IN1, then IN2's, ...
                          (indices shifted), the scenes' roots side by side and all animations'
                          channels in one animation. Materials are dropped: geometry only.

merge OUT A B and merge OUT B A hold the same meshes in the other order: what a re-export does.
"""
import json
import sys


def shift(j, key, n):
    if key in j:
        j[key] += n


def merge(paths):
    out = {'asset': {'version': '2.0', 'generator': 'tests/cli/diff/diff_gltf_merge.py'}, 'scene': 0, 'scenes': [{'nodes': []}],
           'nodes': [], 'meshes': [], 'skins': [], 'accessors': [], 'bufferViews': [], 'buffers': [],
           'animations': [{'name': 'merged', 'channels': [], 'samplers': []}]}
    for path in paths:
        j = json.load(open(path))
        base = {k: len(out[k]) for k in ('nodes', 'meshes', 'skins', 'accessors', 'bufferViews', 'buffers')}
        for b in j['buffers']:
            assert b['uri'].startswith('data:'), path + ': only embedded buffers'
            out['buffers'].append(b)
        for v in j['bufferViews']:
            shift(v, 'buffer', base['buffers'])
            out['bufferViews'].append(v)
        for a in j['accessors']:
            assert 'sparse' not in a, path + ': sparse accessors not handled'
            shift(a, 'bufferView', base['bufferViews'])
            out['accessors'].append(a)
        for m in j['meshes']:
            for p in m['primitives']:
                p.pop('material', None)
                p['attributes'] = {k: v + base['accessors'] for k, v in p['attributes'].items()}
                shift(p, 'indices', base['accessors'])
                p['targets'] = [{k: v + base['accessors'] for k, v in t.items()} for t in p.get('targets', [])] or None
                if p['targets'] is None:
                    del p['targets']
            out['meshes'].append(m)
        for s in j.get('skins', []):
            s['joints'] = [n + base['nodes'] for n in s['joints']]
            shift(s, 'inverseBindMatrices', base['accessors'])
            shift(s, 'skeleton', base['nodes'])
            out['skins'].append(s)
        for n in j['nodes']:
            if 'children' in n:
                n['children'] = [c + base['nodes'] for c in n['children']]
            shift(n, 'mesh', base['meshes'])
            shift(n, 'skin', base['skins'])
            n.pop('camera', None)
            out['nodes'].append(n)
        out['scenes'][0]['nodes'] += [r + base['nodes'] for r in j['scenes'][j.get('scene', 0)]['nodes']]
        anim = out['animations'][0]
        for a in j.get('animations', []):
            sampler_base = len(anim['samplers'])
            for s in a['samplers']:
                s['input'] += base['accessors']
                s['output'] += base['accessors']
                anim['samplers'].append(s)
            for c in a['channels']:
                c['sampler'] += sampler_base
                c['target']['node'] += base['nodes']
                anim['channels'].append(c)
    return out


def main():
    if sys.argv[1] != 'merge' or len(sys.argv) < 5:
        sys.exit(__doc__)
    json.dump(merge(sys.argv[3:]), open(sys.argv[2], 'w'))


main()
