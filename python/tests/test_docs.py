# SPDX-License-Identifier: Zlib
"""docs/python.md's examples run: every fenced python block that follows a `<!-- runnable -->`
line is run from the source tree as a script and must exit 0."""
import os
import re
import subprocess
import sys

import pytest

from conftest import ROOT

DOC = ROOT / "docs" / "python.md"


def runnable_blocks():
    text = DOC.read_text()
    return [m.group(1) for m in re.finditer(r"^<!-- runnable -->\n```python\n(.*?)^```$", text, re.S | re.M)]


def run(code):
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, env=dict(os.environ))


def test_there_are_runnable_blocks():
    assert len(runnable_blocks()) >= 2     # the Quick start's two at least


@pytest.mark.parametrize("i", range(len(runnable_blocks())))
def test_runnable_block_runs(i):
    code = runnable_blocks()[i]
    p = run(code)
    assert p.returncode == 0, "block %d of docs/python.md:\n%s\n%s" % (i, code, p.stderr)


def test_quick_start_prints_what_it_says():
    code = next(b for b in runnable_blocks() if "set_input(1, 0)" in b)
    lines = run(code).stdout.splitlines()
    assert lines == ["98 heard", "141 spotted", "141 phase", "181 caught", "caught at (11, 37)"]
    assert "It prints `98 heard`, `141 spotted`, `141 phase`, `181 caught` and `caught at (11, 37)`" \
        in " ".join(DOC.read_text().split())
