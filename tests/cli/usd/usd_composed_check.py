"""info's `composed` against usd-core's own composition (run with usd-core's python):
    usd_composed_check.py STAGE INFO.json
Sublayers: the stage's root layer stack with their layer offsets. References, payloads and
variant selections: Usd.PrimCompositionQuery's arcs of each prim that are not ancestral (its
own, not its parent's brought down), over every prim and instance proxy; instances:
Usd.Prim.IsInstance. Files are named
relative to the stage's folder, as info names them. Exit 1 naming what differs."""
import json
import os
import re
import sys

from pxr import Pcp, Sdf, Usd

stage_path, info_path = sys.argv[1], sys.argv[2]
stage = Usd.Stage.Open(stage_path)
folder = os.path.dirname(os.path.abspath(stage_path))


def shown(identifier):
    # A package's entry is "pkg.usdz[entry]" in both; a file, relative to the stage's folder.
    path = os.path.abspath(identifier)
    if path.startswith(folder + "/"):
        path = path[len(folder) + 1:]
    return path


def number(x):
    return "%.10g" % x


want = []
root = stage.GetRootLayer()
# The root layer stack in strength order, each sublayer with its offset composed from the root's.
def sublayers(layer, offset, out):
    for path, o in zip(layer.subLayerPaths, layer.subLayerOffsets):
        sub = Sdf.Layer.FindOrOpen(Sdf.ComputeAssetPathRelativeToLayer(layer, path))
        total = offset * o
        # Pcp also scales a sublayer of another rate into its parent's.
        rate = lambda l: l.timeCodesPerSecond if l.HasTimeCodesPerSecond() else (l.framesPerSecond if l.HasFramesPerSecond() else 24)
        total = total * Sdf.LayerOffset(0, rate(layer) / rate(sub))
        text = "sublayer " + shown(sub.identifier)
        if not total.IsIdentity():
            text += " (offset %s, scale %s)" % (number(total.offset), number(total.scale))
        out.append(text)
        sublayers(sub, total, out)


sublayers(root, Sdf.LayerOffset(), want)
kinds = {Pcp.ArcTypeReference: "reference", Pcp.ArcTypePayload: "payload", Pcp.ArcTypeVariant: "variant"}
for prim in stage.Traverse(Usd.TraverseInstanceProxies(Usd.PrimAllPrimsPredicate)):
    if prim.IsInstance():
        want.append("instance " + str(prim.GetPath()))
    for arc in Usd.PrimCompositionQuery(prim).GetCompositionArcs():
        kind = kinds.get(arc.GetArcType())
        # Not ancestral: an arc of the prim's own specs, in whichever layer (a variant set authored
        # in a referenced prim is introduced in that layer's namespace, but it is this prim's).
        if not kind or arc.IsAncestral():
            continue
        node = arc.GetTargetNode()
        if kind == "variant":
            sel = node.path.GetVariantSelection()
            want.append("variant %s {%s=%s}" % (prim.GetPath(), sel[0], sel[1]))
        else:
            layer = node.layerStack.identifier.rootLayer.identifier
            want.append("%s %s -> %s<%s>" % (kind, prim.GetPath(), shown(layer), node.path))

got = json.load(open(info_path))["composed"]
# The arcs' own offsets are info's detail; usd-core's node offsets are composed with the parent's.
strip = lambda s: re.sub(r" \(offset [^)]*\)$", "", s) if not s.startswith("sublayer") else s
g, w = sorted(map(strip, got)), sorted(map(strip, want))
if g != w:
    print("info's composed:", g)
    print("usd-core's:     ", w)
    sys.exit(1)
print("usd_composed_check: %d entries, as usd-core composes them" % len(g))
