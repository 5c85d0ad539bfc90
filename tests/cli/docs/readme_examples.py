"""The examples of the README and of the docs the manual moved to (docs/commands.md,
docs/rig_ci.md, docs/lint.md, ...), run: every ```sh block is run or skipped for a stated reason,
and every output snippet is compared with what the command really printed or wrote. Each document
runs in its own scratch copy of the repository's layout, so its examples stand on their own.

Markers (HTML comments, invisible on the rendered page) go on the line before a fenced block:
  <!-- readme-test: run -->              run each line of the next ```sh block (exit 0 expected)
  <!-- readme-test: run, exit N -->      the same, each line expected to exit N
  <!-- readme-test: skip: REASON -->     do not run the next ```sh block, for this reason
  <!-- readme-test: stdout of COMMAND --> the next block is COMMAND's stdout (COMMAND: a run line)
  <!-- readme-test: file NAME -->        the next block is the content of NAME after the runs
A ```sh block without a marker fails the test, so that a new example cannot go unchecked.

Comparison: a snippet line that is only `...` stands for any number of lines; `...` inside a
line for any text. A ```json snippet is compared as one line (its line breaks and indentation
are layout only). The only normalisation of the real output is the scratch folder's path, which
becomes nothing (the examples run in a scratch copy of the repository's layout).

usage: readme_examples.py RIGSCOPE_BINARY [DOCUMENT...]   (default: README.md)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

MARKER = re.compile(r"^\s*<!-- readme-test: (.*?) -->\s*$")
FENCE = re.compile(r"^(\s*)```(\w*)\s*$")


def env_for(cmd):
    """The environment of one README line. In the sanitizer build (RIGSCOPE_ASAN_RUNTIME set by
    tests/CMakeLists.txt) the Python module is instrumented, so a line that starts python gets
    the ASan runtime preloaded, and the interpreter's own leaks are not reported."""
    env = dict(os.environ)
    runtime = env.get("RIGSCOPE_ASAN_RUNTIME")
    if runtime and "python3" in cmd:
        env["LD_PRELOAD"] = runtime
        env["ASAN_OPTIONS"] = "detect_leaks=0"
    return env


def blocks(lines):
    """Yields (marker or None, language, body lines, line number) for each fenced block."""
    i, marker = 0, None
    while i < len(lines):
        m = MARKER.match(lines[i])
        if m:
            marker = (m.group(1), i + 1)
            i += 1
            continue
        f = FENCE.match(lines[i])
        if f:
            indent, lang, start = f.group(1), f.group(2), i + 1
            body = []
            i += 1
            while i < len(lines) and not re.match(r"^\s*```\s*$", lines[i]):
                line = lines[i]
                body.append(line[len(indent):] if line.startswith(indent) else line)
                i += 1
            yield marker, lang, body, start
            marker = None
        elif lines[i].strip():
            marker = None  # a marker applies to the block right after it
        i += 1


def pattern(snippet_lines, one_line):
    """A regex for the snippet: `...` lines match any lines, `...` in a line any text."""
    if one_line:
        text = "".join(line.strip() for line in snippet_lines)
        return re.compile(r"\A" + r".*?".join(re.escape(p) for p in re.split(r" ?\.\.\.", text)) + r"\n?\Z", re.S)
    parts = []
    for line in snippet_lines:
        if line.strip() == "...":
            parts.append(r"(?:.*\n)*?")
        else:
            parts.append(r".*?".join(re.escape(p) for p in line.split("...")) + r"\n")
    return re.compile(r"\A" + "".join(parts) + r"\Z")


def run_document(binary, root, corpus, readme, failures):
    """Runs one document's examples; appends its failures; returns how many passed."""
    lines = open(readme, encoding="utf-8").read().split("\n")
    name = os.path.relpath(readme, root)
    scratch = tempfile.mkdtemp(prefix="readme_examples.")
    passes = 0
    try:
        # The documents' paths: build/rigscope, build/python, data/, scripts/, ../shared/corpus.
        work = os.path.join(scratch, "repo")
        os.makedirs(os.path.join(work, "build"))
        os.makedirs(os.path.join(scratch, "shared"))
        os.symlink(binary, os.path.join(work, "build", "rigscope"))
        # The Python module, built beside the binary.
        python_dir = os.path.join(os.path.dirname(os.path.abspath(binary)), "python")
        if os.path.isdir(python_dir):
            os.symlink(python_dir, os.path.join(work, "build", "python"))
        for d in ("data", "scripts", "docs"):
            os.symlink(os.path.join(root, d), os.path.join(work, d))
        os.symlink(os.path.abspath(corpus), os.path.join(scratch, "shared", "corpus"))

        stdout_of = {}
        for marker, lang, body, start in blocks(lines):
            where = "%s line %d" % (name, start)
            if lang == "sh" and marker is None:
                failures.append("%s: a ```sh block without a readme-test marker (run or skip: REASON)" % where)
                continue
            if marker is None:
                continue
            text, _ = marker
            if text.startswith("skip:"):
                if not text[5:].strip():
                    failures.append("%s: skip without a reason" % where)
                continue
            if text.startswith("run"):
                m = re.match(r"^run(?:, exit (\d+))?$", text)
                if not m or lang != "sh":
                    failures.append("%s: bad marker '%s'" % (where, text))
                    continue
                want = int(m.group(1) or 0)
                for cmd in body:
                    if not cmd.strip() or cmd.lstrip().startswith("#"):
                        continue
                    r = subprocess.run(["bash", "-c", cmd], cwd=work, capture_output=True, text=True, env=env_for(cmd))
                    out = r.stdout.replace(work + "/", "").replace(work, ".")
                    stdout_of[re.sub(r"\s+#(\s.*)?$", "", cmd).strip()] = out
                    if r.returncode != want:
                        failures.append("%s: `%s` exited %d, the document expects %d: %s"
                                        % (where, cmd.strip(), r.returncode, want, r.stderr.strip()[:300]))
                    else:
                        passes += 1
                continue
            m = re.match(r"^(stdout of|file) (.+)$", text)
            if not m:
                failures.append("%s: bad marker '%s'" % (where, text))
                continue
            if m.group(1) == "file":
                path = os.path.join(work, m.group(2))
                if not os.path.isfile(path):
                    failures.append("%s: %s was not written by the examples before it" % (where, m.group(2)))
                    continue
                real = open(path, encoding="utf-8").read().replace(work + "/", "")
            else:
                cmd = m.group(2).strip()
                if cmd not in stdout_of:
                    failures.append("%s: `%s` is not a command of a run block before it" % (where, cmd))
                    continue
                real = stdout_of[cmd]
            if pattern(body, lang == "json").match(real):
                passes += 1
            else:
                shown = "\n".join("    | " + l for l in real.split("\n")[:12])
                failures.append("%s: the snippet does not match %s; the real output begins:\n%s"
                                % (where, text, shown))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return passes


def main():
    binary = os.path.abspath(sys.argv[1])
    root = os.getcwd()
    documents = sys.argv[2:] or ["README.md"]
    corpus = os.environ.get("RIGSCOPE_CORPUS", os.path.join(root, "..", "shared", "corpus"))

    failures, passes = [], 0
    for document in documents:
        passed = run_document(binary, root, corpus, os.path.join(root, document), failures)
        if passed == 0:
            failures.append("%s: no example ran and passed" % document)
        print("%s: %d passed" % (document, passed))
        passes += passed

    for f in failures:
        print("FAIL: " + f)
    print("%d passed, %d failed" % (passes, len(failures)))
    return 1 if failures or passes == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
