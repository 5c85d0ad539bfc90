"""docs/python.md's examples as one script (its ```python blocks, in order, as one session), and
the mypy settings they are checked with. Used by test_docs.py and install_check.py."""
import re
from pathlib import Path

# matplotlib (Debian's 3.6) ships no type information; everything else the examples import must
# be typed, rigscope included, so that a missing or wrong stub fails the check.
MYPY_INI = """[mypy]
warn_unused_ignores = True
[mypy-matplotlib.*]
ignore_missing_imports = True
"""


def blocks(markdown: Path):
    return re.findall(r"```python\n(.*?)```", markdown.read_text(), re.S)


def script(markdown: Path) -> str:
    return "\n".join(blocks(markdown))
