"""The extension of `pip install .`: CMake builds the target rigscope_python of this checkout
(python/CMakeLists.txt, with the CLI's flags) and setuptools puts it in the package python/rigscope.
Metadata is in pyproject.toml; the version is CMakeLists.txt's, so that there is one.

Environment: CMAKE_CXX_COMPILER_LAUNCHER (e.g. ccache; used by default when ccache is on PATH),
CMAKE_BUILD_PARALLEL_LEVEL (jobs; default: every core), RIGSCOPE_CMAKE_ARGS (more -D options).
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def cmake_version():
    text = (ROOT / "CMakeLists.txt").read_text()
    return re.search(r"project\(rigscope VERSION ([0-9.]+)", text).group(1)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        # build-pip/ of the checkout, one level down like scripts/setup.sh's build/: with ccache's
        # base_dir the compiles then match that build's and are cache hits.
        build = ROOT / "build-pip"
        configure = ["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release", "-DRIGSCOPE_TESTS=OFF",
                     "-DRIGSCOPE_BENCH=OFF", f"-DPYTHON_EXECUTABLE={sys.executable}"]
        if "CMAKE_CXX_COMPILER_LAUNCHER" not in os.environ and shutil.which("ccache"):
            configure.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
        configure += shlex.split(os.environ.get("RIGSCOPE_CMAKE_ARGS", ""))
        # The report page's viewer is bundled by npm's esbuild (report/package-lock.json), as
        # scripts/setup.sh does; without npm, Session.report() says the viewer is missing.
        if not (ROOT / "report" / "node_modules" / "esbuild").exists() and shutil.which("npm"):
            subprocess.run(["npm", "ci", "--prefix", str(ROOT / "report"), "--no-audit", "--no-fund", "--loglevel=error"],
                           check=True)
        # ccache sees paths inside the checkout relative to the build folder (as scripts/ccache.bash
        # sets for build/): a pip install of a clone elsewhere then reuses what build/ compiled.
        env = dict(os.environ)
        env.setdefault("CCACHE_BASEDIR", str(ROOT))
        env.setdefault("CCACHE_NOHASHDIR", "1")
        subprocess.run(configure, check=True, env=env)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        subprocess.run(["cmake", "--build", str(build), "--target", "rigscope_python", "-j", jobs], check=True, env=env)
        built = list((build / "python" / "rigscope").glob("_rigscope*.so"))
        if len(built) != 1:
            raise RuntimeError(f"expected one _rigscope*.so in {build / 'python' / 'rigscope'}, found {built}")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[0], target)
        viewer = build / "python" / "rigscope" / "viewer.html"
        if viewer.exists():
            shutil.copyfile(viewer, target.parent / "viewer.html")


setup(
    version=cmake_version(),
    ext_modules=[Extension("rigscope._rigscope", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    # Beside scripts/setup.sh's build/, whose options (tests, benchmarks) it leaves alone.
    options={"build": {"build_base": str(ROOT / "build-pip" / "setuptools")}},
)
