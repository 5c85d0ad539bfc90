"""docs/python.md's examples run as written (from the repository root, plots to a temp folder)."""
import os
import re

from conftest import ROOT


def blocks():
    text = (ROOT / "docs" / "python.md").read_text()
    return re.findall(r"```python\n(.*?)```", text, re.S)


def test_every_example_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    code = blocks()
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
