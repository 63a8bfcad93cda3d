# SPDX-License-Identifier: Zlib
"""The game's controls: the hosted player, noises, tiles, doors, lights, spawn and remove,
orders and senses, saves; every refusal an exception (patrol.Error from C, ValueError /
TypeError for wrong Python arguments), the world unchanged."""
import math

import pytest

import patrol

BY_GAME = 0xFFFFFFFF


@pytest.fixture
def demo(root):
    return patrol.load_map(root / "maps" / "demo.map")


@pytest.fixture
def cellars(root):
    return patrol.load_map(root / "maps" / "cellars.map")


def code_of(excinfo):
    return excinfo.value.code


def test_hosted_player(cellars):
    w = patrol.World(cellars)
    with pytest.raises(patrol.Error) as ei:
        w.move_player(3.5, 3.5)
    assert code_of(ei) == "PT_ERR_USAGE"
    assert not w.hosted
    w.host_player()
    w.host_player()
    assert w.hosted
    for args, code in (((0.5, 0.5), "PT_ERR_NOT_WALKABLE"), ((-1.0, 3.0), "PT_ERR_OUT_OF_MAP"),
                       ((math.nan, 3.0), "PT_ERR_RANGE"), ((3.0, math.inf), "PT_ERR_RANGE")):
        with pytest.raises(patrol.Error) as ei:
            w.move_player(*args)
        assert code_of(ei) == code, args
        with pytest.raises(patrol.Error):
            w.teleport_player(*args)
    with pytest.raises(TypeError):
        w.move_player("3", 3)
    start = w.player.cell
    # walk east along row 17 at 5 tiles a second, one footstep per new cell
    x, steps = 2.5, 0
    for _ in range(60):
        x += 5 / 60
        w.move_player(x, 17.5, 5.0, 0.0)
        before = w.player.cell
        w.step()
        assert w.player.pos == pytest.approx((x, 17.5))
        feet = [n for n in w.noises() if n.kind == "footstep"]
        assert len(feet) == (1 if w.player.cell != before else 0)
        steps += len(feet)
    assert steps == w.player.cell[0] - start[0] > 0
    w.teleport_player(10.5, 15.5)
    w.step()
    assert w.player.cell == (10, 15) and not [n for n in w.noises() if n.kind == "footstep"]
    assert w.player.motion == "continuous"


def test_noise_arguments(demo):
    w = patrol.World(demo)
    for bad in (0, -1, math.nan):
        with pytest.raises(ValueError):
            w.noise(10, 37, bad)
    with pytest.raises(TypeError):
        w.noise(10, 37, "loud")
    with pytest.raises(TypeError):
        w.noise(10.5, 37, 3)
    with pytest.raises(patrol.Error) as ei:
        w.noise(demo.width, 0, 3)
    assert code_of(ei) == "PT_ERR_OUT_OF_MAP"
    with pytest.raises(patrol.Error):
        w.noise(2**40, 0, 3)
    w.step()
    assert not [n for n in w.noises() if n.kind == "game"]  # nothing refused was queued


def test_set_tile(cellars):
    w = patrol.World(cellars)
    w.host_player()
    w.set_tile(5, 17, "#")
    with pytest.raises(patrol.Error) as ei:
        w.teleport_player(5.5, 17.5)
    assert code_of(ei) == "PT_ERR_NOT_WALKABLE"
    w.set_tile(5, 17, ".")
    w.teleport_player(5.5, 17.5)
    with pytest.raises(patrol.Error) as ei:
        w.set_tile(5, 17, "Z")
    assert code_of(ei) == "PT_ERR_UNKNOWN_TILE"
    with pytest.raises(patrol.Error) as ei:
        w.set_tile(-1, 17, "#")
    assert code_of(ei) == "PT_ERR_OUT_OF_MAP"
    with pytest.raises(TypeError):
        w.set_tile(5, 17, 35)
    with pytest.raises(ValueError):
        w.set_tile(5, 17, "##")
    with pytest.raises(ValueError):
        w.set_tile(5, 17, "")


def test_door_arguments(demo):
    w = patrol.World(demo)
    d = w.doors()[0]
    assert w.door(d.x, d.y) == "open"
    assert w.door(0, 0) is None and w.door(-5, 2**40) is None
    with pytest.raises(ValueError):
        w.set_door(d.x, d.y, "ajar")
    with pytest.raises(patrol.Error) as ei:
        w.set_door(0, 0, "closed")
    assert code_of(ei) == "PT_ERR_BAD_VALUE"
    with pytest.raises(patrol.Error) as ei:
        w.set_door(-1, 0, "closed")
    assert code_of(ei) == "PT_ERR_OUT_OF_MAP"
    assert not [e for e in w.events() if e.kind == "door"]
    w.set_door(d.x, d.y, "locked")
    assert w.doors()[0] == patrol.Door(d.x, d.y, "locked", d.closes)


def test_lights_and_douse(cellars):
    w = patrol.World(cellars)
    lit = w.light_at(22, 9)
    w.set_light("hall_torch", False)
    assert w.light("hall_torch").on is False and w.lights()[1].on is False
    assert w.light_at(22, 9) < lit
    assert [(e.kind, e.a, e.b, e.x, e.y) for e in w.events()] == [("light", BY_GAME, 0, 22, 9)]
    w.set_light(1, True)
    assert w.light(1).on and w.light_at(22, 9) == lit
    w.set_light(1, True)   # the state it has: no event
    assert len(list(w.events())) == 2
    with pytest.raises(patrol.Error) as ei:
        w.set_light("no_such_torch", False)
    assert code_of(ei) == "PT_ERR_BAD_VALUE"
    for bad in (2, -1, 2**40):
        with pytest.raises(patrol.Error):
            w.set_light(bad, False)
    with pytest.raises(TypeError):
        w.set_light(1.0, False)
    assert w.douse() is None   # the player starts far from both
    w.host_player()
    w.teleport_player(6.5, 10.5)
    w.step()
    doused = w.douse()
    assert doused == patrol.Light(0, "cellar_torch", 6, 9, 5.0, 1.0, False)
    assert [(e.kind, e.a, e.b) for e in w.events() if e.kind == "light"] == [("light", 0, 0)]
    assert w.douse() is None


def test_spawn_and_remove(demo):
    w = patrol.World(demo, seed=3)
    n = len(w)
    (g,) = w.spawn("guard extra at=10,37 pattern=yard_snake speed=2.5")
    assert g.id == n and g.name == "extra" and g.kind == "guard" and g.speed == 2.5
    crows = w.spawn("flock rooks at=46,10 count=4 kind=crow steering=crow")
    assert [c.id for c in crows] == [n + 1, n + 2, n + 3, n + 4] and {c.kind for c in crows} == {"boid"}
    w.step()
    assert sorted(e.a for e in w.events() if e.kind == "spawned") == [n, n + 1, n + 2, n + 3, n + 4]
    for line, code, col in (("guard extra at=10,37", "PT_ERR_DUPLICATE", None),
                            ("guard other at=1,1", "PT_ERR_NOT_WALKABLE", None),
                            ("guard other at=10,37 pattern=nope", "PT_ERR_UNKNOWN_PATTERN", None),
                            ("guard other at=10,37 colour=red", "PT_ERR_UNKNOWN_KEY", 22)):
        before = len(w)
        with pytest.raises(patrol.Error) as ei:
            w.spawn(line)
        assert code_of(ei) == code, (line, str(ei.value))
        assert ei.value.file == "spawn" and ei.value.line == 1
        if col:
            assert ei.value.col == col
        assert len(w) == before
    with pytest.raises(patrol.Error) as ei:
        w.spawn("guard other at=10,37 colour=red", name="wave3.txt")
    assert ei.value.file == "wave3.txt" and str(ei.value).startswith("wave3.txt:1:")
    with pytest.raises(TypeError):
        w.spawn(42)
    w.remove(g)
    w.remove(crows[1].id)
    assert not g.alive and not crows[1].alive and crows[0].alive
    with pytest.raises(patrol.Error):
        g.pos
    for bad in (g, 0, 10**6, -1):
        with pytest.raises(patrol.Error) as ei:
            w.remove(bad)
        assert code_of(ei) == "PT_ERR_RANGE"
    w.step()
    assert sorted(e.a for e in w.events() if e.kind == "removed") == [g.id, crows[1].id]
    with pytest.raises(KeyError):
        w.entity(g.id)
    (h,) = w.spawn("guard extra at=10,37")   # the name is free again, the id new
    assert h.id == n + 5 and len(w) == n + 6


def test_order_arguments_and_errors(demo):
    w = patrol.World(demo, seed=3)
    g = w.find("snake")
    for kwargs in ({"kind": "dance"}, {"kind": "goto"}, {"kind": "hold", "at": (1, 1)},
                   {"kind": "pattern"}, {"kind": "resume", "pattern": "x"}):
        with pytest.raises(ValueError):
            w.order(g, **kwargs)
    with pytest.raises(TypeError):
        w.order(g, "goto", 5)
    for who in (w.player, w.find("hen1"), 10**9, -3):
        with pytest.raises(patrol.Error) as ei:
            w.order(who, "hold")
        assert code_of(ei) == "PT_ERR_RANGE"
    with pytest.raises(patrol.Error) as ei:
        w.order(g, "goto", (1, 1))
    assert code_of(ei) == "PT_ERR_NOT_WALKABLE"
    with pytest.raises(patrol.Error) as ei:
        w.order(g, "investigate", (500, 1))
    assert code_of(ei) == "PT_ERR_OUT_OF_MAP"
    with pytest.raises(patrol.Error) as ei:
        w.order(g, "pattern", pattern="yard_snak")
    assert code_of(ei) == "PT_ERR_UNKNOWN_PATTERN" and "yard_snake" in str(ei.value)
    assert g.order is None
    other = patrol.World(demo)
    with pytest.raises(ValueError):
        other.order(g, "hold")
    w.order(g, "pattern", pattern="courtyard_round")
    # in the courtyard, with a player that stands at its start far away
    w = patrol.World(demo, seed=3, controlled=True)
    g = w.find("courtyard")
    w.order(g, "investigate", (14, 12))
    assert g.order == patrol.Order("investigate", 14, 12)
    for _ in range(1200):
        w.step()
        done = [e for e in w.events() if e.kind == "order-done"]
        if done:
            assert (done[0].a, done[0].b, done[0].x, done[0].y) == (g.id, 2, 14, 12)
            break
    else:
        pytest.fail("the investigate order was never done")
    assert g.order is None


def test_senses_and_speed(demo):
    w = patrol.World(demo)
    g = w.find("snake")
    w.set_view(g, 12, 180)
    assert g.view == (12.0, pytest.approx(math.pi))
    w.set_view(g, cone=90)
    assert g.view == (12.0, pytest.approx(math.pi / 2))
    w.set_hearing(g.id, 5)
    w.set_speed(g, 4.5)
    assert g.hearing == 5 and g.speed == 4.5
    for call, args in ((w.set_view, (0,)), (w.set_view, (300,)), (w.set_view, (None, 400)), (w.set_view, (-1,)),
                       (w.set_hearing, (0,)), (w.set_hearing, (-2,)), (w.set_speed, (51,)), (w.set_speed, (math.nan,))):
        with pytest.raises(patrol.Error) as ei:
            call(g, *args)
        assert code_of(ei) == "PT_ERR_RANGE", (call, args)
    assert g.view == (12.0, pytest.approx(math.pi / 2)) and g.hearing == 5 and g.speed == 4.5
    with pytest.raises(patrol.Error) as ei:
        w.set_speed(w.player, 3)
    assert "not a live guard" in str(ei.value)
    with pytest.raises(TypeError):
        w.set_speed(g, "fast")


def test_bad_saves(demo, root, tmp_path):
    w = patrol.World(demo, seed=3)
    w.step(100)
    data = w.save()
    for cut in (0, 8, len(data) // 2, len(data) - 1):
        with pytest.raises(patrol.Error) as ei:
            patrol.World.load(data[:cut], demo)
        assert code_of(ei) in ("PT_ERR_UNTERMINATED", "PT_ERR_BAD_ENCODING"), cut
    with pytest.raises(patrol.Error) as ei:
        patrol.World.load(data[:len(data) // 2], demo)
    assert code_of(ei) == "PT_ERR_UNTERMINATED"
    for at in (len(data) // 3, len(data) - 5):
        bad = bytearray(data)
        bad[at] ^= 0x5A
        with pytest.raises(patrol.Error) as ei:
            patrol.World.load(bytes(bad), demo)
        assert code_of(ei) == "PT_ERR_BAD_VALUE", at
    with pytest.raises(patrol.Error) as ei:
        patrol.World.load(b"not a save at all, no" * 10, demo)
    assert code_of(ei) == "PT_ERR_BAD_ENCODING"
    with pytest.raises(patrol.Error) as ei:
        patrol.World.load(data, patrol.load_map(root / "maps" / "fort.map"))
    assert code_of(ei) == "PT_ERR_MISSING"
    with pytest.raises(TypeError):
        patrol.World.load(data.decode("latin-1"), demo)
    with pytest.raises(TypeError):
        patrol.World.load(data, "maps/demo.map")
    with pytest.raises(patrol.Error) as ei:
        patrol.World.load_file(tmp_path / "none.sav", demo)
    assert code_of(ei) == "PT_ERR_IO" and ei.value.file.endswith("none.sav")
    with pytest.raises(patrol.Error) as ei:
        w.save_file(tmp_path / "no" / "dir.sav")
    assert code_of(ei) == "PT_ERR_IO"
    assert patrol.World.load(memoryview(data), demo).tick == 100
    assert patrol.World.load(bytearray(data), demo).save() == data


def test_world_arguments(demo):
    for kwargs, exc in ((dict(seed=-1), ValueError), (dict(seed=2**64), ValueError), (dict(seed="7"), TypeError),
                        (dict(threads=65), ValueError), (dict(threads=1.5), TypeError), (dict(tick_hz=0), ValueError),
                        (dict(tick_hz=True), TypeError)):
        with pytest.raises(exc):
            patrol.World(demo, **kwargs)
    with pytest.raises(TypeError):
        patrol.World("maps/demo.map")
    assert patrol.World(demo, seed=2**64 - 1, threads=0, tick_hz=30).dt == pytest.approx(1 / 30)
    w = patrol.World(demo)
    with pytest.raises(TypeError):
        w.step(1.5)
    w.step(0)
    w.step(-3)
    assert w.tick == 0
    w.close()
    assert bool(w) and w.closed
    with pytest.raises(patrol.Error):
        len(w)
    with pytest.raises(ValueError):
        patrol.World.load(b"", demo, threads=-1)
