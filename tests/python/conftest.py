"""Shared fixtures: the CLI binary the module is compared with, and the repository's paths.

ctest runs this suite with RIGSCOPE_BIN set to build/rigscope and PYTHONPATH to build/python.
"""
import csv
import io
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"
# RIGSCOPE_CORPUS, as for the C++ and CLI tests; else ../shared/corpus beside the checkout.
CORPUS = Path(os.environ.get("RIGSCOPE_CORPUS", ROOT.parent / "shared" / "corpus"))


@pytest.fixture(scope="session")
def cli():
    binary = os.environ.get("RIGSCOPE_BIN", str(ROOT / "build" / "rigscope"))

    def run(*args):
        out = subprocess.run([binary, "-q", *map(str, args)], check=True, capture_output=True, text=True)
        return out.stdout

    return run


def csv_rows(text):
    return list(csv.DictReader(io.StringIO(text)))


def column(rows, name, dtype=np.float32):
    # The CLI prints the shortest text that reads back as the same float, so parsing it as
    # float32 gives the module's value bit for bit.
    return np.array([r[name] for r in rows], dtype=dtype)


# Inside ctest (RIGSCOPE_PYTEST_NO_SKIP=1, tests/CMakeLists.txt) a skipped case is a failure: a
# missing module or file would otherwise pass the suite unseen ("N passed, 1 skipped" inside a
# ctest that passes), where .ci/run already fails any skipped CLI test.
@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.skipped and os.environ.get("RIGSCOPE_PYTEST_NO_SKIP") == "1":
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"skipped inside ctest, where nothing may be: {reason}"
