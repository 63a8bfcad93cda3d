# SPDX-License-Identifier: Zlib
"""The level tools from Python: the solver's route replayed in a World, .test files run as
`patrol test` runs them, and check()'s warnings as `patrol check` prints them."""
import concurrent.futures
import os
import random
import re
import subprocess

import pytest

import patrol


def replay(level, route):
    """Walks route in a world of level tick by tick: the player's cell on every tick, and the
    kinds of every event, until the goal (round 1) or route.ticks + 1 ticks."""
    w = patrol.World(level, player_pattern=route, end_round_on_catch=True)
    cells, kinds = [w.player.cell], set()
    while w.round == 0 and w.tick <= route.ticks:
        w.step()
        cells.append(w.player.cell)
        kinds.update(e.kind for e in w.events())
    return w, cells, kinds


def assert_route_walks(level, route):
    assert route, "no route: %s" % route.why
    assert route.cells[0] == route.start and route.cells[-1] == route.goal
    assert len(route.cells) == route.ticks + 1
    w, cells, kinds = replay(level, route)
    assert w.round == 1, "not at the goal after %d ticks (at %s)" % (w.tick, w.player.cell)
    assert w.tick == route.ticks
    assert cells == route.cells
    assert not kinds & {"spotted", "caught", "heard"}, kinds
    assert "goal" in kinds


def test_demo_route_walks_unseen(root):
    level = patrol.load_map(root / "maps" / "demo.map")
    route = patrol.solve(level, gait="walk")  # one gait's search: a third of "any"'s time
    assert_route_walks(level, route)
    assert route.gait == "walk" and route.speed > 0
    assert route.margin_ticks >= 1
    # the pattern text is the one `patrol solve --out` writes
    assert route.text.splitlines()[1:4] == ["pattern solved", "  kind control", "  origin %d,%d" % route.start]
    assert route.text.endswith("  at_end stop\nend\n")


def test_route_text_is_the_commands(root, patrol_bin, tmp_path):
    level = patrol.load_map(root / "tests" / "data" / "test" / "cross.map")
    route = patrol.solve(level, gait="walk", name="through")
    out = tmp_path / "r.pat"
    subprocess.run([patrol_bin, "solve", "tests/data/test/cross.map", "--gait", "walk", "--name", "through",
                    "--out", str(out), "-q"], cwd=root, check=True, capture_output=True)
    assert route.text == out.read_text()
    assert_route_walks(level, route)


def small_map(seed):
    """A walled room of 16 x 9 with random pillars, a guard pacing the middle row and another
    turning on the spot; the player top left, the exit bottom right."""
    rng = random.Random(seed)
    w, h = 16, 9
    grid = [["#"] * w] + [["#"] + ["."] * (w - 2) + ["#"] for _ in range(h - 2)] + [["#"] * w]
    for _ in range(12):
        x, y = rng.randrange(2, w - 2), rng.randrange(1, h - 1)
        if y != h // 2:
            grid[y][x] = "#"
    tx = rng.randrange(4, w - 4)
    grid[1][1], grid[h - 2][w - 2], grid[1][tx] = ".", "E", "."
    gx = rng.randrange(2, w - 3)
    text = ["format 1", "seed %d" % (seed + 1), "patterns small.pat", "player at=1,1",
            "guard pacer at=%d,%d pattern=pace view=%d fov=90" % (gx, h // 2, rng.randrange(2, 5)),
            "guard turner at=%d,1 heading=90 view=3 fov=60" % tx,
            "grid"] + ["".join(r) for r in grid] + ["end"]
    pat = ["pattern pace", "  kind path", "  points %d,%d %d,%d" % (gx, h // 2, w - 3 if gx < w - 4 else 2, h // 2),
           "  at_end reverse", "end"]
    return "\n".join(text) + "\n", "\n".join(pat) + "\n"


def test_routes_on_generated_maps_walk_unseen(tmp_path):
    solved = 0
    for seed in range(10):
        folder = tmp_path / str(seed)
        folder.mkdir()
        text, pat = small_map(seed)
        (folder / "small.map").write_text(text)
        (folder / "small.pat").write_text(pat)
        level = patrol.load_map(folder / "small.map")
        route = patrol.solve(level, max_time=20)
        if route:
            assert_route_walks(level, route)
            solved += 1
        else:
            assert route.why in ("horizon", "unreachable", "seen at start")
            with pytest.raises(patrol.Error):
                patrol.World(level, player_pattern=route)
    assert solved >= 5


def test_solve_arguments(root):
    level = patrol.load_map(root / "tests" / "data" / "test" / "hall.map")
    with pytest.raises(ValueError):
        patrol.solve(level, gait="crawl")
    with pytest.raises(ValueError):
        patrol.solve(level, max_time=0)
    with pytest.raises(ValueError):
        patrol.solve(level, name="no spaces")
    with pytest.raises(TypeError):
        patrol.solve("tests/data/test/hall.map")
    short = patrol.solve(level, max_time=0.1)
    assert not short and short.why == "horizon" and short.cells == [] and short.text == ""


def test_a_route_outlives_its_world_and_map(root):
    level = patrol.load_map(root / "tests" / "data" / "test" / "cross.map")
    route = patrol.solve(level)
    w = patrol.World(level, player_pattern=route, end_round_on_catch=True)
    del route, level
    import gc
    gc.collect()
    w.step(600)
    assert w.round == 1


# --- .test files --------------------------------------------------------------------------

def cli_test(patrol_bin, root, path):
    p = subprocess.run([patrol_bin, "test", path], cwd=root, capture_output=True, text=True)
    return p.returncode, p.stdout.splitlines(), p.stderr.splitlines()


def _test_files(root):
    """Every .test fixture (they pass, fail and are broken), the demo's; every shipped one
    with PATROL_PY_ALL_LEVELS=1 (about 16 s more)."""
    files = sorted(os.path.relpath(p, root) for p in (root / "tests" / "data" / "test").glob("*.test"))
    shipped = sorted(os.path.relpath(p, root) for p in (root / "maps").glob("*.test"))
    return files + (shipped if os.environ.get("PATROL_PY_ALL_LEVELS") else ["maps/demo.test"])


def test_run_test_agrees_with_patrol_test(root, patrol_bin, monkeypatch):
    monkeypatch.chdir(root)
    files = _test_files(root)
    with concurrent.futures.ThreadPoolExecutor(2) as pool:  # the command's runs beside ours
        cli = pool.map(lambda f: cli_test(patrol_bin, root, f), files)
        runs = {}
        for f in files:
            try:
                runs[f] = patrol.run_test(f)
            except patrol.Error as e:
                runs[f] = e
        cli = list(cli)
    seen = set()
    for f, (rc, out, err) in zip(files, cli):
        run = runs[f]
        if isinstance(run, patrol.Error):
            assert rc == 1 and str(run) == err[0], f
            seen.add("broken")
            continue
        assert (rc == 0) == run.ok, f
        lines = ["%s %s:%d: %s: %s" % (r.status.upper(), f, r.line, r.text, r.message) for r in run]
        assert lines == out[:-1], f
        assert out[-1].startswith("%d passed, %d failed" % (run.passed, run.failed))
        assert all(r.passed == (r.status == "pass") and r.name == r.kind for r in run)
        seen.add("ok" if run.ok else "failed")
    assert seen == {"ok", "failed", "broken"}
    demo = runs["maps/demo.test"]
    assert demo.ok and demo.failed == 0 and demo.passed == len(demo) >= 10
    assert {r.kind for r in demo} >= {"visits", "stays", "covers", "unseen", "goal", "caught", "solvable"}
    assert demo.map_path == "maps/demo.map"


def test_bad_test_files_raise_at_their_place(root, patrol_bin, monkeypatch):
    monkeypatch.chdir(root)
    bad = sorted(os.path.relpath(p, root) for p in (root / "tests" / "data" / "bad").glob("*.test"))
    assert len(bad) >= 10
    for f in bad:
        rc, _, err = cli_test(patrol_bin, root, f)
        with pytest.raises(patrol.Error) as ei:
            patrol.run_test(f)
        e = ei.value
        assert rc == 1 and str(e) == err[0], f
        m = re.match(r"^(.*?):(\d+):(\d+): error: ", err[0])
        assert m and (e.file, e.line, e.col) == (m[1], int(m[2]), int(m[3])), f


# --- check --------------------------------------------------------------------------------

def cli_warnings(patrol_bin, root, path):
    p = subprocess.run([patrol_bin, "check", path], cwd=root, capture_output=True, text=True)
    return p.returncode, [ln for ln in p.stderr.splitlines() if ": warning: " in ln]


def test_check_warnings_are_the_commands(root, patrol_bin, monkeypatch):
    monkeypatch.chdir(root)
    files = [os.path.relpath(p, root) for p in sorted((root / "maps").glob("*.*"))
             if p.suffix in (".map", ".tmx", ".test")]
    files += [os.path.relpath(p, root) for p in sorted((root / "tests" / "data" / "check").glob("*.map"))]
    warned = 0
    for f in files:
        rc, lines = cli_warnings(patrol_bin, root, f)
        if rc != 0:
            with pytest.raises(patrol.Error):
                patrol.check(f)
            continue
        ws = patrol.check(f)
        assert [str(w) for w in ws] == lines, f
        warned += bool(ws)
    assert warned >= 3


def test_check_kinds(root, monkeypatch):
    monkeypatch.chdir(root)
    assert patrol.check("maps/demo.map") == []
    assert patrol.check("maps/demo.test") == []
    assert patrol.check(sorted(p for p in os.listdir("patterns") if p.endswith(".pat"))[0] and
                        os.path.join("patterns", sorted(os.listdir("patterns"))[0])) == []
    w = patrol.check("tests/data/check/nogoal.map")
    assert len(w) == 1 and w[0].file == "tests/data/check/nogoal.map" and w[0].line > 0
    assert "no goal tile" in w[0].message
    with pytest.raises(ValueError):
        patrol.check("maps/levels.txt")
    assert patrol.file_kind("maps/levels.txt") == "level list"
    assert patrol.file_kind("maps/demo.tmx") == "Tiled map"
