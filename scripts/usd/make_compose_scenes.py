#!/usr/bin/env python3
"""Writes the multi-file USD stages of rigscope's composition tests (tests/cli/usd/usd_compose.sh):
each a folder whose root layer composes others, with usd-core's API for the rigs and by hand as
.usda text for the composition, each with a stated purpose (below).

    make_compose_scenes.py OUTDIR [--usdc]

--usdc also writes each stage's folder again as binary crate layers (OUTDIR/crate/NAME), every
layer exported by usd-core with its asset paths renamed to the .usdc twins.

The oracle is OpenUSD itself (scripts/usd/bake_oracle.py on the root layer: Usd composes, then
UsdSkel.BakeSkinning skins); nothing here states an expected position. Runs in the usd-core venv.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_scenes import JOINTS, animate, bind, chain, linear_weights, new_stage, tube  # noqa: E402
from pxr import Gf, Sdf, UsdGeom, UsdSkel, UsdUtils  # noqa: E402


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def rig(path, root="/Rig", mesh="Tube", start=1, end=12, tcps=24, default_prim=True, axis_deg=40):
    """A skinned three-joint tube as its own layer: a SkelRoot with xformOps translate and scale
    (which the composing layers override), the Skeleton, its animation, the tube."""
    stage = new_stage(path, start=start, end=end, tcps=tcps)
    root_prim = UsdSkel.Root.Define(stage, root)
    xf = UsdGeom.Xformable(root_prim.GetPrim())
    xf.AddTranslateOp().Set(Gf.Vec3d(0, 0, 0))
    xf.AddScaleOp().Set(Gf.Vec3f(1, 1, 1))
    skel = chain(stage, root + "/Skel", JOINTS, 1.5)
    m, pts, *_ = tube(stage, root + "/" + mesh)
    idx, w = linear_weights(pts, 3.0, 3)
    bind(m.GetPrim(), skel, idx, w, 2)
    animate(stage, root + "/Skel/Anim", skel, JOINTS, list(range(start, end + 1)), scale=1.3, degrees=axis_deg)
    UsdSkel.BindingAPI.Apply(root_prim.GetPrim())
    if default_prim:
        stage.SetDefaultPrim(root_prim.GetPrim())
    stage.Save()


def box_text(name, translate_samples=None, translate=None):
    """A static quad box under an Xform whose translate is sampled or set."""
    ops = ""
    if translate_samples:
        ops = "        double3 xformOp:translate.timeSamples = {" + ", ".join(
            f"{t}: ({x}, {y}, {z})" for t, (x, y, z) in translate_samples) + "}\n"
    elif translate:
        ops = f"        double3 xformOp:translate = ({translate[0]}, {translate[1]}, {translate[2]})\n"
    if ops:
        ops += '        uniform token[] xformOpOrder = ["xformOp:translate"]\n'
    return f'''    def Mesh "{name}"
    {{
{ops}        point3f[] points = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)]
        int[] faceVertexCounts = [4, 4, 4, 4, 4, 4]
        int[] faceVertexIndices = [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 5, 4, 1, 2, 6, 5, 2, 3, 7, 6, 3, 0, 4, 7]
    }}
'''


def scene_internal(out):
    """Purpose: references inside one layer and instanceable prims. A class prototype rig is
    referenced by /Hero, whose local translate wins over the prototype's (local is stronger than a
    reference) and whose skel:skeleton and animationSource targets (authored as </CharProto/...>)
    map into /Hero's namespace; a second prototype is referenced by an instanceable prim (an
    instance composes as its prototype's prims), whose Xform moves it, and whose own over of the
    prototype's Prop is ignored (Usd ignores an instance's local opinions below it); a third prim
    is referenced twice over (a reference inside the referenced prototype, with offset 2)."""
    path = os.path.join(out, "internal", "internal.usda")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    rig(path, root="/CharProto", default_prim=False)
    layer = Sdf.Layer.FindOrOpen(path)
    layer.GetPrimAtPath("/CharProto").specifier = Sdf.SpecifierClass
    layer.Save()
    text = open(path).read()
    text += '''
def SkelRoot "Hero" (
    prepend references = </CharProto>
)
{
    double3 xformOp:translate = (3, 0.5, 0)
}

class Xform "PropProto"
{
''' + box_text("Prop", translate=(0, 2, 0)) + '''
    def Xform "Inner" (
        prepend references = </InnerProto> (offset = 2)
    )
    {
    }
}

class Xform "InnerProto"
{
''' + box_text("Deep", translate_samples=[(1, (0, 0, 0)), (12, (0, 0, 4))]) + '''}

def Xform "PropInstance" (
    instanceable = true
    prepend references = </PropProto>
)
{
    double3 xformOp:translate = (-2, 0, 1)
    uniform token[] xformOpOrder = ["xformOp:translate"]

    over "Prop"
    {
        double3 xformOp:translate = (0, 9, 0)
    }
}
'''
    write(path, text)


def scene_files(out):
    """Purpose: sublayers and references to files beside the layer. The root sublayers
    strong.usda (in sub/) and weak.usda (offset 10, scale 2): both author /Box's translate, the
    stronger's wins; weak.usda's time-sampled /Crate is moved by the offset and scale (samples at
    0..5 land at 10..20, inside the root's 1..24). sub/strong.usda references @box.usda@, which
    resolves against sub/ (its own folder), not the root's. /Char references rig.usda's
    defaultPrim with (offset = 3): its animation plays three codes later. /Arm has a payload of
    arm.usda</Limb> with (offset = -2), a layer at 48 time codes per second (its samples are
    scaled by 24/48 into the root's rate, as Pcp does, then offset)."""
    d = os.path.join(out, "files")
    rig(os.path.join(d, "rig.usda"))
    rig(os.path.join(d, "arm.usda"), root="/Limb", mesh="ArmTube", start=2, end=40, tcps=48, default_prim=False, axis_deg=-60)
    write(os.path.join(d, "sub", "box.usda"), '#usda 1.0\n(\n    defaultPrim = "Shelf"\n)\n\ndef Xform "Shelf"\n{\n' +
          box_text("ShelfBox", translate=(0, 0, -3)) + "}\n")
    write(os.path.join(d, "sub", "strong.usda"), '''#usda 1.0

def Xform "Box"
{
    double3 xformOp:translate = (0, 5, 0)
}

def Xform "Storage" (
    prepend references = @box.usda@
)
{
}
''')
    write(os.path.join(d, "weak.usda"), '''#usda 1.0
(
    startTimeCode = 100
    endTimeCode = 200
)

def Xform "Box"
{
    double3 xformOp:translate = (7, 0, 0)
    uniform token[] xformOpOrder = ["xformOp:translate"]
''' + box_text("BoxMesh") + '''}

def Xform "Crate"
{
    double3 xformOp:translate.timeSamples = {0: (0, 0, 0), 2.5: (1, 3, 0), 5: (2, 0, 0)}
    uniform token[] xformOpOrder = ["xformOp:translate"]
''' + box_text("CrateMesh") + '''}
''')
    write(os.path.join(d, "root.usda"), '''#usda 1.0
(
    startTimeCode = 1
    endTimeCode = 24
    timeCodesPerSecond = 24
    metersPerUnit = 1
    upAxis = "Y"
    subLayers = [
        @./sub/strong.usda@,
        @weak.usda@ (offset = 10; scale = 2)
    ]
)

def SkelRoot "Char" (
    prepend references = @./rig.usda@ (offset = 3)
)
{
    double3 xformOp:translate = (0, 0, 2)
}

def SkelRoot "Arm" (
    prepend payload = @arm.usda@</Limb> (offset = -2)
)
{
    double3 xformOp:translate = (0, -3, 0)
}
''')


def scene_variants(out):
    """Purpose: authored variant selections, LIVRPS. /Char references rig.usda and has the variant
    set rig selected "hero": the variant's translate (5, 0, 0) is weaker than /Char's own
    (0, 2, 0), its scale 1.5 stronger than the reference's 1; "stunt" (not selected) would move and
    scale it otherwise. The variant also holds an over of the referenced animation's rotations
    (bending the other way), which wins over the reference's own. /Prop's selection is authored in the
    referenced layer (a weaker opinion still selects when no stronger one does)."""
    d = os.path.join(out, "variants")
    rig(os.path.join(d, "rig.usda"))
    write(os.path.join(d, "prop.usda"), '''#usda 1.0
(
    defaultPrim = "Prop"
)

def Xform "Prop" (
    variants = {
        string size = "big"
    }
    prepend variantSets = "size"
)
{
    uniform token[] xformOpOrder = ["xformOp:scale"]
    float3 xformOp:scale = (1, 1, 1)
    variantSet "size" = {
        "big" {
            float3 xformOp:scale = (3, 3, 3)
        }
        "small" {
            float3 xformOp:scale = (0.25, 0.25, 0.25)
        }
    }
''' + box_text("PropBox", translate=(1, 0, 0)) + '''}
''')
    write(os.path.join(d, "variants.usda"), '''#usda 1.0
(
    startTimeCode = 1
    endTimeCode = 12
    metersPerUnit = 1
)

def SkelRoot "Char" (
    variants = {
        string rig = "hero"
    }
    prepend references = @rig.usda@
    prepend variantSets = "rig"
)
{
    double3 xformOp:translate = (0, 2, 0)
    variantSet "rig" = {
        "hero" {
            double3 xformOp:translate = (5, 0, 0)
            float3 xformOp:scale = (1.5, 1.5, 1.5)
            over "Skel"
            {
                over "Anim"
                {
                    quatf[] rotations.timeSamples = {
                        1: [(1, 0, 0, 0), (1, 0, 0, 0), (1, 0, 0, 0)],
                        12: [(0.9238795, 0, 0, -0.3826834), (0.9238795, 0, 0, -0.3826834), (1, 0, 0, 0)]
                    }
                }
            }
        }
        "stunt" {
            double3 xformOp:translate = (-5, 0, 0)
            float3 xformOp:scale = (0.5, 0.5, 0.5)
        }
    }
}

def Xform "Shelf" (
    prepend references = @prop.usda@
)
{
}
''')


def scene_usdz(out):
    """Purpose: a .usdz whose root layer references another entry of the package (a path
    relative to the root entry, inside the package)."""
    d = os.path.join(out, "usdz_src")
    rig(os.path.join(d, "parts", "rig.usda"))
    write(os.path.join(d, "root.usda"), '''#usda 1.0
(
    startTimeCode = 1
    endTimeCode = 12
    defaultPrim = "Char"
)

def SkelRoot "Char" (
    prepend references = @parts/rig.usda@
)
{
    double3 xformOp:translate = (1, 1, 1)
}
''')
    writer = Sdf.ZipFileWriter.CreateNew(os.path.join(out, "packaged.usdz"))
    writer.AddFile(os.path.join(d, "root.usda"), "root.usda")
    writer.AddFile(os.path.join(d, "parts", "rig.usda"), "parts/rig.usda")
    writer.Save()


def as_crate(src, dst):
    """Every .usda under src as a .usdc under dst, its asset paths to .usda renamed .usdc."""
    for root, _, files in os.walk(src):
        for f in files:
            if not f.endswith(".usda"):
                continue
            layer = Sdf.Layer.FindOrOpen(os.path.join(root, f))
            out = os.path.join(dst, os.path.relpath(os.path.join(root, f[:-5] + ".usdc"), src))
            os.makedirs(os.path.dirname(out), exist_ok=True)
            UsdUtils.ModifyAssetPaths(layer, lambda p: p[:-5] + ".usdc" if p.endswith(".usda") else p)
            layer.Export(out)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for scene in (scene_internal, scene_files, scene_variants, scene_usdz):
        scene(out)
    if "--usdc" in sys.argv[2:]:
        for name in ("internal", "files", "variants"):
            as_crate(os.path.join(out, name), os.path.join(out, "crate", name))


if __name__ == "__main__":
    main()
