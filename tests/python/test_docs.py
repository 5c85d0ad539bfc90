"""docs/python.md's examples run as written (from the repository root, plots to a temp folder),
and type-check with mypy against the package's stub. install_check.py does both again from a
pip install in a fresh virtual environment."""
import os
import subprocess
import sys
from pathlib import Path

import rigscope
from conftest import ROOT
from docs_examples import MYPY_INI, blocks, script

DOC = ROOT / "docs" / "python.md"


def test_every_example_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    code = blocks(DOC)
    assert len(code) >= 4
    scope = {}  # one namespace for all blocks, as in one session (later blocks use earlier imports)
    for i, block in enumerate(code):
        # The plot lands in a temp folder, not the checkout.
        block = block.replace('"t_values.png"', repr(str(tmp_path / "t_values.png")))
        try:
            exec(compile(block, f"docs/python.md block {i}", "exec"), scope)
        except Exception as e:  # the errors example raises on purpose and catches it itself
            raise AssertionError(f"block {i} failed: {e}") from e
    assert (tmp_path / "t_values.png").stat().st_size > 10000


def mypy(tmp_path, code):
    (tmp_path / "mypy.ini").write_text(MYPY_INI)
    (tmp_path / "examples.py").write_text(code)
    # The package this suite imports (build/python under ctest), with its stub and py.typed.
    env = dict(os.environ, MYPYPATH=str(Path(rigscope.__file__).parents[1]))
    return subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"), "examples.py"],
                          cwd=tmp_path, env=env, capture_output=True, text=True)


def test_examples_type_check(tmp_path):
    out = mypy(tmp_path, script(DOC))
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_stub_is_what_mypy_checks_against(tmp_path):
    # Without the stub, rigscope would be an untyped import (an error, not Any): either way
    # these calls must be found wrong by the stub's types.
    wrong = "import rigscope\ns = rigscope.load(5)\ns.tension(frames=1.5)\ns.rivets([1], bake=True)['rotation'].foo\n"
    out = mypy(tmp_path, wrong)
    assert out.returncode == 1
    assert 'Argument 1 to "load" has incompatible type "int"' in out.stdout, out.stdout
    assert 'Argument "frames" to "tension" of "Session" has incompatible type "float"' in out.stdout, out.stdout
    assert '"ndarray[Any, dtype[floating[_64Bit]]]" has no attribute "foo"' in out.stdout, out.stdout
