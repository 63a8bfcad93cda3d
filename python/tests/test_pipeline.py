# SPDX-License-Identifier: Zlib
"""examples/python/pipeline.py on a folder of two small levels, one good and one broken."""
import os
import re
import shutil
import subprocess
import sys


def run_pipeline(root, folder):
    env = dict(os.environ)
    p = subprocess.run([sys.executable, str(root / "examples" / "python" / "pipeline.py"), str(folder)],
                       capture_output=True, text=True, env=env, timeout=120)
    return p.returncode, p.stdout.splitlines(), p.stderr


def make_levels(root, folder, broken=True):
    data = root / "tests" / "data" / "test"
    shutil.copy(data / "cross.map", folder)
    shutil.copy(data / "cross.pat", folder)
    (folder / "cross.test").write_text("map cross.map\nsolvable\nunseen for=5\ncaught route=none within=1\n")
    if broken:
        (folder / "broken.map").write_text("format 1\nplayer at=1,1\nbogus line\ngrid\n###\n#.E\n###\nend\n")
        (folder / "broken.test").write_text("map broken.map\ngoal within=5\n")


def test_pipeline_table_and_status(root, tmp_path):
    make_levels(root, tmp_path)
    rc, out, err = run_pipeline(root, tmp_path)
    assert rc == 1, err
    cells = [re.split(r"\s{2,}", line.strip()) for line in out[:3]]
    assert cells[0] == ["level", "check", "solvable", "tests", "time"]
    assert cells[1][:4] == ["broken.map", "error", "-", "0/1"]
    # cross.map: solvable (the route's ticks and margin), 2 of its 3 expectations hold
    assert cells[2][:2] == ["cross.map", "ok"]
    assert re.fullmatch(r"yes: \d+ ticks, margin \d+ t", cells[2][2]), cells[2]
    assert cells[2][3] == "2/3"
    assert re.fullmatch(r"\d+\.\d s", cells[2][4])
    assert out[3] == "%s:3:1: error: unknown directive 'bogus'" % (tmp_path / "broken.map")
    assert out[4].startswith("%s:4: caught route=none within=1: " % (tmp_path / "cross.test"))
    assert out[-1] == "2 levels, 2 failed"


def test_pipeline_passes_a_good_folder(root, tmp_path):
    make_levels(root, tmp_path, broken=False)
    (tmp_path / "cross.test").write_text("map cross.map\nsolvable\nunseen for=5\n")
    rc, out, err = run_pipeline(root, tmp_path)
    assert rc == 0, out
    assert out[1].split()[:3] == ["cross.map", "ok", "yes:"] and "2/2" in out[1]
    assert out[-1] == "1 level, 0 failed"


def test_pipeline_bad_folder(root, tmp_path):
    rc, _, err = run_pipeline(root, tmp_path / "none")
    assert rc == 2 and "is not a folder" in err
