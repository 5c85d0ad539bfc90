#!/usr/bin/env python3
"""A user's install (ctest python_install): `pip install --no-build-isolation` of a clean clone
into a fresh virtual environment made with --system-site-packages (Debian's numpy), then
docs/python.md's examples run from another folder with that environment's python and no
PYTHONPATH, mypy on them against the installed stub, and `pip wheel`.

Usage: install_check.py WORK_DIR (emptied first). The clone is of the checkout's committed HEAD.
pip runs with --no-index: everything comes from Debian, nothing from the network.
"""
import os
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

from docs_examples import MYPY_INI, script

ROOT = Path(__file__).resolve().parents[2]


def run(cmd, **kw):
    print("+", " ".join(map(str, cmd)), flush=True)
    return subprocess.run([str(c) for c in cmd], check=True, **kw)


def main():
    work = Path(sys.argv[1]).resolve()
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    if "CMAKE_CXX_COMPILER_LAUNCHER" not in env and shutil.which("ccache"):
        env["CMAKE_CXX_COMPILER_LAUNCHER"] = "ccache"

    clone = work / "clone"
    run(["git", "clone", "--quiet", ROOT, clone])
    venv = work / "venv"
    run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", venv])
    py = venv / "bin" / "python"
    start = time.monotonic()
    run([py, "-m", "pip", "install", "--quiet", "--no-build-isolation", "--no-index", clone], env=env)
    print(f"install_check: pip install took {time.monotonic() - start:.0f} s", flush=True)

    # Another folder, with only the examples' input files in it.
    elsewhere = work / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "data").symlink_to(clone / "data")
    (elsewhere / "examples.py").write_text(script(clone / "docs" / "python.md"))
    where = run([py, "-c", "import rigscope; print(rigscope.__file__)"], cwd=elsewhere, env=env, capture_output=True, text=True)
    assert where.stdout.startswith(str(venv)), where.stdout
    run([py, "examples.py"], cwd=elsewhere, env=env)
    assert (elsewhere / "t_values.png").stat().st_size > 10000

    # The installed stub types the examples, and is what mypy reads: a wrong call is found.
    (elsewhere / "mypy.ini").write_text(MYPY_INI)
    run([py, "-m", "mypy", "examples.py"], cwd=elsewhere, env=env)
    (elsewhere / "wrong.py").write_text("import rigscope\nrigscope.load(5)\n")
    wrong = subprocess.run([py, "-m", "mypy", "wrong.py"], cwd=elsewhere, env=env, capture_output=True, text=True)
    assert wrong.returncode == 1 and 'Argument 1 to "load" has incompatible type "int"' in wrong.stdout, wrong.stdout

    start = time.monotonic()
    run([py, "-m", "pip", "wheel", "--quiet", "--no-build-isolation", "--no-deps", "--no-index", "-w", work / "wheel", clone], env=env)
    print(f"install_check: pip wheel took {time.monotonic() - start:.0f} s", flush=True)
    [wheel] = (work / "wheel").glob("rigscope-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for want in ("rigscope/__init__.py", "rigscope/__init__.pyi", "rigscope/py.typed"):
        assert want in names, (want, names)
    assert any(n.startswith("rigscope/_rigscope") and n.endswith(".so") for n in names), names
    print("install_check: passed", flush=True)


if __name__ == "__main__":
    main()
