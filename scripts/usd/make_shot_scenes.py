#!/usr/bin/env python3
"""Writes the composed shots of rigscope's shot tests (tests/cli/usd/usd_shot.sh): stages as a studio
hands them over, where the rig is not in the root layer. Each is a folder, made with usd-core's
API (the rig: make_compose_scenes.rig) and .usda text for the composition, with a stated purpose.

    make_shot_scenes.py OUTDIR

- sublayer/shot.usda: the SkelRoot is defined in a sublayer (layout.usda), the root layer only
  sublayers it and moves the rig with an over. An output over layout.usda would replace the
  user's layout; baked points must retype the SkelRoot although the root layer never defines it.
- reference/shot.usda: /World/Char references assets/character.usda (a SkelRoot by defaultPrim)
  and /World/Prop references assets/prop.usdz (a usdz package): outputs over either file, or over
  a symlink to one, would replace the asset.
- indexed/rig.usda: the tube's primvars:displayColor is indexed, as DCCs export a constant
  colour (one value, an index per point): the indices stay under any values a stronger layer
  writes unless they are blocked.
- instanced/shot.usda: /Crowd/Hero is instanceable and references the character: opinions a
  stronger layer writes below an instance are ignored by USD.
- instanced/local.usda: the same instance, and the shot's own layer holds an opinion below it
  (an over of the tube's displayColor), which USD ignores while the prim is an instance: making
  it an ordinary prim to take the outputs would apply that opinion, so the run is refused.
- instanced/tagged.usda: a prim tagged instanceable = true that brings in nothing by an arc of
  its own: USD does not instance it (Pcp finds no instanceable data) and composes its children
  as usual, so its box moves with it.
- moved/rig.usda: the rig under an Xform translated 1 m and rotated (the SkelRoot's parent):
  its rest pose is its bind pose, which lint and info must see in one space.

The oracle is OpenUSD itself (scripts/usd/bake_oracle.py: Usd composes, UsdSkel.BakeSkinning
skins); nothing here states an expected position. Runs in the usd-core venv.
"""
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_compose_scenes import rig, write  # noqa: E402
from pxr import Sdf, Usd, UsdGeom, UsdUtils, Vt  # noqa: E402


def indexed_colour(path, mesh_path="/Rig/Tube"):
    """The mesh's displayColor as a DCC writes a constant colour: one value, one index a point."""
    stage = Usd.Stage.Open(path)
    mesh = UsdGeom.Mesh(stage.GetPrimAtPath(mesh_path))
    count = len(mesh.GetPointsAttr().Get())
    pv = UsdGeom.PrimvarsAPI(mesh).CreatePrimvar("displayColor", Sdf.ValueTypeNames.Color3fArray, UsdGeom.Tokens.vertex)
    pv.Set(Vt.Vec3fArray([(0.8, 0.5, 0.3)]))
    pv.SetIndices(Vt.IntArray([0] * count))
    stage.GetRootLayer().Save()


def scene_sublayer(out):
    d = os.path.join(out, "sublayer")
    rig(os.path.join(d, "layout.usda"))
    write(os.path.join(d, "shot.usda"), '''#usda 1.0
(
    defaultPrim = "Rig"
    endTimeCode = 12
    metersPerUnit = 1
    startTimeCode = 1
    subLayers = [
        @./layout.usda@
    ]
    timeCodesPerSecond = 24
    upAxis = "Y"
)

over "Rig"
{
    double3 xformOp:translate = (0.5, 0.25, 0)
}
''')


def scene_reference(out):
    d = os.path.join(out, "reference")
    rig(os.path.join(d, "assets", "character.usda"))
    # A static prop as a usdz package: its one layer holds a box.
    prop = os.path.join(d, "assets", "prop_src", "prop.usda")
    write(prop, '''#usda 1.0
(
    defaultPrim = "Box"
    metersPerUnit = 1
    upAxis = "Y"
)

def Mesh "Box"
{
    point3f[] points = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)]
    int[] faceVertexCounts = [4, 4, 4, 4, 4, 4]
    int[] faceVertexIndices = [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 5, 4, 1, 2, 6, 5, 2, 3, 7, 6, 3, 0, 4, 7]
}
''')
    if not UsdUtils.CreateNewUsdzPackage(prop, os.path.join(d, "assets", "prop.usdz")):
        sys.exit("make_shot_scenes: usd-core could not write the usdz package")
    shutil.rmtree(os.path.dirname(prop))
    write(os.path.join(d, "shot.usda"), '''#usda 1.0
(
    defaultPrim = "World"
    endTimeCode = 12
    metersPerUnit = 1
    startTimeCode = 1
    timeCodesPerSecond = 24
    upAxis = "Y"
)

def Xform "World"
{
    def "Char" (
        prepend references = @./assets/character.usda@
    )
    {
        double3 xformOp:translate = (0, 1, 0)
    }

    def "Prop" (
        prepend references = @./assets/prop.usdz@
    )
    {
        double3 xformOp:translate = (4, 0, 0)
        uniform token[] xformOpOrder = ["xformOp:translate"]
    }
}
''')


def scene_indexed(out):
    d = os.path.join(out, "indexed")
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, "rig.usda")
    rig(path)
    indexed_colour(path)


def crowd_shot(path, body):
    """A shot whose /Crowd/Hero is an instance of the character, with `body` inside Hero."""
    write(path, '''#usda 1.0
(
    defaultPrim = "Crowd"
    endTimeCode = 12
    metersPerUnit = 1
    startTimeCode = 1
    timeCodesPerSecond = 24
    upAxis = "Y"
)

def Xform "Crowd"
{
    def "Hero" (
        instanceable = true
        prepend references = @./assets/character.usda@
    )
    {
''' + body + '''    }
}
''')


def scene_instanced(out):
    d = os.path.join(out, "instanced")
    rig(os.path.join(d, "assets", "character.usda"))
    indexed_colour(os.path.join(d, "assets", "character.usda"))
    crowd_shot(os.path.join(d, "shot.usda"), "        double3 xformOp:translate = (2, 0, 1)\n")


def scene_instanced_local(out):
    crowd_shot(os.path.join(out, "instanced", "local.usda"),
               "        over \"Tube\"\n        {\n            color3f[] primvars:displayColor = [(1, 0, 0)]\n        }\n")


def scene_tagged(out):
    write(os.path.join(out, "instanced", "tagged.usda"), '''#usda 1.0
(
    defaultPrim = "Lonely"
    endTimeCode = 4
    metersPerUnit = 1
    startTimeCode = 1
    timeCodesPerSecond = 24
    upAxis = "Y"
)

def Xform "Lonely" (
    instanceable = true
)
{
    double3 xformOp:translate.timeSamples = {1: (0, 0, 0), 4: (0, 3, 0)}
    uniform token[] xformOpOrder = ["xformOp:translate"]

    def Mesh "Box"
    {
        point3f[] points = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)]
        int[] faceVertexCounts = [4, 4, 4, 4, 4, 4]
        int[] faceVertexIndices = [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 5, 4, 1, 2, 6, 5, 2, 3, 7, 6, 3, 0, 4, 7]
    }
}
''')


def scene_moved(out):
    d = os.path.join(out, "moved")
    os.makedirs(d, exist_ok=True)
    inner = os.path.join(d, "inner.usda")
    rig(inner)
    stage = Usd.Stage.Open(inner)
    # The rig moves under a parent: the same layer's prims, rooted one level down.
    layer = stage.GetRootLayer()
    text = layer.ExportToString()
    os.remove(inner)
    head, body = text.split('def SkelRoot "Rig"', 1)
    head = head.replace('defaultPrim = "Rig"', 'defaultPrim = "Set"')
    indented = "\n".join(("    " + line) if line else line for line in ('def SkelRoot "Rig"' + body).rstrip().split("\n"))
    # Paths inside the rig (skel:skeleton, skel:animationSource) move with it.
    indented = indented.replace("</Rig/", "</Set/Rig/")
    write(os.path.join(d, "rig.usda"), head + '''def Xform "Set"
{
    double3 xformOp:translate = (1, 0, 0)
    float xformOp:rotateY = 30
    uniform token[] xformOpOrder = ["xformOp:translate", "xformOp:rotateY"]

''' + indented + "\n}\n")


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    scene_sublayer(out)
    scene_reference(out)
    scene_indexed(out)
    scene_instanced(out)
    scene_instanced_local(out)
    scene_tagged(out)
    scene_moved(out)


if __name__ == "__main__":
    main()
