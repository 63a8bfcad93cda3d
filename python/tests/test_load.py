# SPDX-License-Identifier: Zlib
"""load_map loads as the patrol command loads: every shipped map loads, and every file the
command refuses gives the same located error, through the same C loader (pt_level_load)."""
import concurrent.futures
import os
import re
import subprocess

import pytest

import patrol

PLACE = re.compile(r"^(?P<file>.*?)(?::(?P<line>\d+))?(?::(?P<col>\d+))?: error: ")
MAP_KINDS = ("map", "Tiled map")


def first_error(argv, cwd):
    """The first error line a patrol command prints on stderr ("" when none), and its status."""
    p = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, errors="replace")
    for line in p.stderr.splitlines():
        if PLACE.match(line):
            return line, p.returncode
    return "", p.returncode


def assert_place(e, line):
    m = PLACE.match(line)
    assert m, line
    assert (e.file, e.line, e.col) == (m["file"], int(m["line"] or 0), int(m["col"] or 0)), line


def shipped_maps(root):
    return sorted(p for p in (root / "maps").iterdir() if p.suffix in (".map", ".tmx"))


def test_every_shipped_map_loads(root, patrol_bin, monkeypatch):
    monkeypatch.chdir(root)
    maps = shipped_maps(root)
    assert len(maps) >= 5
    for p in maps:
        rel = os.path.relpath(p, root)
        m = patrol.load_map(rel)
        out = subprocess.run([patrol_bin, "check", rel], cwd=root, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        # "maps/demo.map: ok (64x40, 20 entities, 10 patterns)"
        assert out.stdout.startswith("%s: ok (%dx%d, " % (rel, m.width, m.height)), out.stdout
        assert m.path == rel


def bad_inputs(root, tmp_path):
    """Every file under tests/data the patrol command refuses to check, and three more: a
    pattern file given as a map, a missing file, a binary file."""
    files = sorted(os.path.relpath(os.path.join(d, f), root)
                   for d, _, names in os.walk(root / "tests" / "data") for f in names)
    pat = sorted((root / "patterns").glob("*.pat"))[0]
    binary = tmp_path / "binary.map"
    binary.write_bytes(bytes(range(256)) * 4)
    return files + [os.path.relpath(pat, root), str(tmp_path / "missing.map"), str(binary)]


def test_bad_files_give_the_commands_error(root, patrol_bin, tmp_path):
    files = bad_inputs(root, tmp_path)

    def run(f):
        return f, first_error([patrol_bin, "check", f], root), first_error([patrol_bin, "sim", f, "--ticks", "1"], root)

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        runs = list(pool.map(run, files))
    cwd = os.getcwd()
    os.chdir(root)
    problems, refused, kinds = [], 0, set()
    try:
        for f, (check_line, check_rc), (sim_line, _) in runs:
            kind = patrol.file_kind(f)
            if check_rc == 0 and not sim_line:
                continue
            refused += 1
            kinds.add(kind)
            # load_map: sim's first error (the same loader), or the world's when the map loads.
            try:
                level = patrol.load_map(f)
            except patrol.Error as e:
                if str(e) != sim_line:
                    problems.append("load_map %s: %r != sim's %r" % (f, str(e), sim_line))
                else:
                    assert_place(e, sim_line)
                if kind in MAP_KINDS and check_rc == 1 and not check_line.endswith(" on " + f) and str(e) != check_line:
                    problems.append("load_map %s: %r != check's %r" % (f, str(e), check_line))
            else:
                if kind not in MAP_KINDS:
                    problems.append("load_map %s loaded a %s" % (f, kind))
                elif sim_line:
                    try:
                        patrol.World(level)
                        problems.append("%s: sim refuses it (%r), load_map and World take it" % (f, sim_line))
                    except patrol.Error as e:
                        if str(e) != sim_line:
                            problems.append("World %s: %r != sim's %r" % (f, str(e), sim_line))
            # check: check's first error, for the kinds it reads
            if check_rc != 1:
                continue
            try:
                patrol.check(f)
                problems.append("check %s: no error, patrol check says %r" % (f, check_line))
            except ValueError:
                if kind not in ("recording", "level list"):
                    problems.append("check %s: ValueError for a %s" % (f, kind))
            except patrol.Error as e:
                if str(e) != check_line:
                    problems.append("check %s: %r != %r" % (f, str(e), check_line))
                else:
                    assert_place(e, check_line)
    finally:
        os.chdir(cwd)
    assert problems == []
    assert refused > 250
    assert {"map", "Tiled map", "pattern file", "steering file", "test file", "recording"} <= kinds


def test_a_pattern_file_is_not_a_map(root):
    pat = sorted((root / "patterns").glob("*.pat"))[0]
    with pytest.raises(patrol.Error) as ei:
        patrol.load_map(pat)
    e = ei.value
    assert e.code == "PT_ERR_BAD_VALUE"
    assert "this is a pattern file (it begins with 'pattern')" in e.message
    assert e.line >= 1 and e.col >= 1 and e.source.lstrip().startswith("pattern")


def test_load_map_argument_types():
    with pytest.raises(TypeError):
        patrol.load_map(42)
