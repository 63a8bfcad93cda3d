# SPDX-License-Identifier: Zlib
"""examples/python/game.py, the pygame game, run headless (SDL's dummy drivers): a catch ends
the round, the goal wins it, the guards are drawn where patrol puts them, and the fixed-tick
loop steps the world exactly as a World driven directly with the same keys."""
import os
import subprocess
import sys

import pytest

import patrol

from conftest import ROOT

GAME = ROOT / "examples" / "python" / "game.py"
HZ = 60
KEY_MOVES = {"<": (-1, 0), ">": (1, 0), "^": (0, -1), "v": (0, 1)}


def run_game(*args):
    """Runs the game; returns (exit status, {key: value} of its outcome line, stderr)."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    p = subprocess.run([sys.executable, str(GAME), *map(str, args)], env=env, capture_output=True,
                       text=True, timeout=120)
    if p.returncode not in (0, 1, 2) and "libasan" in os.environ.get("LD_PRELOAD", ""):
        pytest.skip("pygame does not run with libasan preloaded (exit %d): %s" % (p.returncode, p.stderr[-300:]))
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("outcome=")]
    out = dict(kv.split("=", 1) for kv in lines[-1].split()) if lines else {}
    return p.returncode, out, p.stderr


def frames_of(script):
    """The game's key script syntax (game.py's parse_keys), the subset these tests use."""
    frames = []
    for item in script.split():
        keys, _, n = item.partition("*")
        frames += [keys.replace(".", "")] * (int(n) if n else 1)
    return frames


def drive(level, script, nframes, fps=60):
    """A World driven directly as the game drives it: frame k's keys, then the ticks due by
    k / fps seconds, none once the round is over."""
    w = patrol.World(level, controlled=True, end_round_on_catch=True)
    keys = frames_of(script)
    for k in range(1, nframes + 1):
        held = keys[k - 1] if k <= len(keys) else ""
        dx = sum(KEY_MOVES[c][0] for c in held if c in KEY_MOVES)
        dy = sum(KEY_MOVES[c][1] for c in held if c in KEY_MOVES)
        w.set_input(dx, dy)
        w.gait = "sneak" if "c" in held else "run" if "s" in held else "walk"
        for _ in range(k * HZ // fps - (k - 1) * HZ // fps):
            if w.round == 0:
                w.step()
    return w


@pytest.fixture(scope="module")
def demo():
    return patrol.load_map(ROOT / "maps" / "demo.map")


def test_walking_into_the_snake_guard_is_caught(demo):
    script = ">*130"
    rc, out, err = run_game("--keys", script)
    assert rc == 0, err
    w = drive(demo, script, 130)
    assert w.round == -1
    assert out["outcome"] == "caught" and out["caught_by"] == "snake"
    assert int(out["tick"]) == w.tick < 130          # the world stops at the catch
    assert out["player"] == "%d,%d" % w.player.cell
    assert out["frames"] == "130"


def test_r_restarts_after_a_catch():
    rc, out, err = run_game("--keys", ">*130 r .*20")
    assert rc == 0, err
    # The frame with r starts a new round at its own time: the 20 frames after it are 20 ticks.
    assert out["outcome"] == "running" and out["tick"] == "20" and out["player"] == "2,37"


def test_the_goal_wins(tmp_path):
    m = tmp_path / "tiny.map"
    m.write_text("format 1\nplayer at=1,1\nguard g at=1,3 view=2 fov=60 heading=180\n"
                 "grid\n#####\n#..E#\n#####\n#...#\n#####\nend\n")
    rc, out, err = run_game("--map", m, "--keys", ">*40", "--screenshot", tmp_path / "won.png")
    assert rc == 0, err
    assert out["outcome"] == "escaped" and out["player"] == "3,1"
    assert (tmp_path / "won.png").stat().st_size > 0


def test_bad_input_is_an_error_not_a_crash(tmp_path):
    rc, out, err = run_game("--map", tmp_path / "none.map", "--frames", "1")
    assert rc == 1 and "none.map" in err and "error" in err and not out
    rc, out, err = run_game("--keys", ">*3 x")
    assert rc == 2 and "'x' is not one of" in err and not out
    rc, out, err = run_game("--assets", tmp_path, "--frames", "1")
    assert rc == 1 and "tiles.png" in err and not out


def test_the_guards_are_drawn_where_patrol_puts_them(demo, tmp_path):
    pygame = pytest.importorskip("pygame")
    shot = tmp_path / "shot.png"
    rc, out, err = run_game("--frames", 90, "--screenshot", shot)
    assert rc == 0 and out["outcome"] == "running", err
    img = pygame.image.load(str(shot))
    w = drive(demo, "", 90)
    at = {e.id: w.drawn_pos(e.id, 0.0) for e in w.entities}
    # The guards' tabard reds (assets/README.md, the RED ramp), drawn opaque over the cones.
    reds = {(0xcc, 0x3e, 0x38), (0x90, 0x24, 0x2e)}
    checked = 0
    for g in w.entities:
        if g.kind != "guard":
            continue
        x, y = at[g.id]
        if any(o != g.id and abs(ox - x) < 3 and abs(oy - y) < 3 for o, (ox, oy) in at.items()):
            continue        # someone else's sprite near: not this guard's pixels alone
        left, top = round((x - 0.5) * 16), round((y - 0.5) * 16)

        def count(dx, dy):      # tabard pixels in the 16x16 square at left+dx, top+dy
            return sum(tuple(img.get_at((px, py)))[:3] in reds
                       for py in range(max(0, top + dy), min(img.get_height(), top + dy + 16))
                       for px in range(max(0, left + dx), min(img.get_width(), left + dx + 16)))
        inside = count(0, 0)
        assert inside >= 4, "guard %s at %.2f,%.2f: %d tabard pixels in its square" % (g.name, x, y, inside)
        # Drawn there, not a few pixels off (at its cell, say, while it walks to the next).
        for dx, dy in ((-8, 0), (8, 0), (0, -8), (0, 10)):   # the tabard: rows 8..12 of the frame
            assert count(dx, dy) < inside, "guard %s drawn %+d,%+d px off" % (g.name, dx, dy)
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("fps", [45, 144])
def test_the_loop_neither_drops_nor_doubles_ticks(demo, fps):
    # Walks, runs, sneaks: 1 or 2 ticks a frame (45 fps), 0 or 1 (144 fps); 60 fps, one a
    # frame, is the catch test above.
    script = ">*20 ^*40 ^s*20 . <c*30 v*20"
    n = 150
    rc, out, err = run_game("--keys", script, "--frames", n, "--fps", fps)
    assert rc == 0, err
    w = drive(demo, script, n, fps)
    assert w.round == 0 and w.player.cell != (2, 37)      # a route that moves and is not caught
    assert int(out["tick"]) == w.tick == n * HZ // fps
    assert out["player"] == "%d,%d" % w.player.cell
    assert out["outcome"] == {0: "running", 1: "escaped", -1: "caught"}[w.round]


def test_a_tiled_map_draws_the_tiles_of_the_map_it_mirrors(tmp_path):
    # maps/demo.tmx mirrors maps/demo.map: the game reads both through Map/World.tile, so the
    # first frame's map area is the same pixels (not a .tmx drawn as plain floor).
    pygame = pytest.importorskip("pygame")
    shots = {}
    for name in ("demo.map", "demo.tmx"):
        shots[name] = tmp_path / (name + ".png")
        rc, out, err = run_game("--map", ROOT / "maps" / name, "--frames", 1, "--scale", 1, "--screenshot", shots[name])
        assert rc == 0, err
    a, b = (pygame.image.load(str(shots[n])) for n in ("demo.map", "demo.tmx"))
    assert a.get_size() == b.get_size() == (64 * 16, 40 * 16 + 24)
    assert pygame.image.tostring(a.subsurface((0, 0, 1024, 640)), "RGB") == \
        pygame.image.tostring(b.subsurface((0, 0, 1024, 640)), "RGB")
    # a drawn tile (grass at 0,0), not a flat colour
    colours = {tuple(a.get_at((x, y)))[:3] for x in range(16) for y in range(16)}
    assert len(colours) > 3


def test_a_changed_tile_is_drawn_again(tmp_path, monkeypatch):
    pygame = pytest.importorskip("pygame")
    import importlib.util
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    spec = importlib.util.spec_from_file_location("game_under_test", GAME)
    game = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(game)
    m = tmp_path / "d.map"
    m.write_text("format 1\nplayer at=1,1\ngrid\n#######\n#..+.E#\n#######\nend\n")
    args = game.argparse.Namespace(seed=None, scale=1, assets=str(ROOT / "assets"))
    pygame.init()
    try:
        g = game.Game(pygame, patrol.load_map(m), args)
        before = pygame.image.tostring(g.backgrounds[0], "RGB")
        cell = lambda: pygame.image.tostring(g.backgrounds[0].subsurface((3 * 16, 16, 16, 16)), "RGB")
        open_door = cell()
        g.world.set_door(3, 1, "closed")
        g.redraw_tiles()
        assert cell() != open_door                      # tinted shut
        g.world.set_tile(2, 1, "#")
        g.redraw_tiles()
        assert pygame.image.tostring(g.backgrounds[0].subsurface((2 * 16, 16, 16, 16)), "RGB") == \
            pygame.image.tostring(g.backgrounds[0].subsurface((0, 0, 16, 16)), "RGB")   # a wall now
        g.restart()                                     # a new world: the map's tiles again
        assert pygame.image.tostring(g.backgrounds[0], "RGB") == before
    finally:
        pygame.quit()


def test_a_dark_map_is_drawn_by_its_light(tmp_path):
    # maps/cellars.map is dark (ambient 0.2) with torches: each floor cell is drawn darker the
    # less light World.light_at gives it; a map in full light (the demo) is not shaded at all.
    pygame = pytest.importorskip("pygame")
    level = patrol.load_map(ROOT / "maps" / "cellars.map")
    w = patrol.World(level, controlled=True, end_round_on_catch=True)
    shot = tmp_path / "cellars.png"
    rc, out, err = run_game("--map", ROOT / "maps" / "cellars.map", "--frames", 1, "--scale", 1, "--screenshot", shot)
    assert rc == 0, err
    img = pygame.image.load(str(shot))
    w.step()
    guards = [(e.x, e.y) for e in w.entities if e.kind != "player"] + [w.player.cell]

    def brightness(x, y):     # the mean of the cell's 16x16 pixels
        px = [tuple(img.get_at((x * 16 + i, y * 16 + j)))[:3] for i in range(16) for j in range(16)]
        return sum(sum(p) for p in px) / len(px)

    floor = [(x, y) for y in range(level.height) for x in range(level.width)
             if level.tile(x, y).name == "floor" and all(abs(x - gx) > 2 or abs(y - gy) > 2 for gx, gy in guards)]
    lit = max(floor, key=lambda c: w.light_at(*c))
    dark = min(floor, key=lambda c: w.light_at(*c))
    assert w.light_at(*lit) > 0.8 and w.light_at(*dark) < 0.3
    assert brightness(*lit) > 1.5 * brightness(*dark)
