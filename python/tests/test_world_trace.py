# SPDX-License-Identifier: Zlib
"""A world read through its views gives `patrol sim --trace`'s trace byte for byte, on every
shipped map; a save loaded goes on as the world it was saved from; doors and orders over many
ticks."""
import math
import subprocess

import pytest

import patrol

TICKS = 600
SEEDS = (1, 7, 123456789)


def shipped_maps(root):
    return sorted((root / "maps").glob("*.map")) + sorted((root / "maps").glob("*.tmx"))


def _llround(v):
    """C's llround: to the nearest integer, halves away from zero."""
    t = math.trunc(v)
    if abs(v - t) >= 0.5:
        t += 1 if v > 0 else -1
    return t


def trace_rows(w):
    """world.h's pt_world_trace_rows, written from the views and the bulk reads: ids, cells
    and positions from one call each (which must agree with the views), the rest from the
    views."""
    out = []
    tick = w.tick
    ids, cells, pos = w.live_ids(), w.cells(), w.positions()
    views = w.entities
    assert [e.id for e in views] == ids.tolist()
    for k, e in enumerate(views):
        x, y = cells[k, 0], cells[k, 1]
        px, py = pos[k, 0], pos[k, 1]
        assert (x, y) == e.cell and (px, py) == e.pos
        tenths = _llround(e.heading * (180.0 / math.pi) * 10.0) % 3600
        out.append("%d,%d,%s,%s,%d,%d,%.3f,%.3f,%d.%d\n" % (tick, ids[k], e.kind, e.state, x, y, px, py,
                                                            tenths // 10, tenths % 10))
    return "".join(out)


def python_trace(level, seed, ticks):
    w = patrol.World(level, seed=seed)
    parts = ["tick,id,kind,state,x,y,px,py,heading\n", trace_rows(w)]
    for _ in range(ticks):
        w.step()
        parts.append(trace_rows(w))
    w.close()
    return "".join(parts)


def assert_same(got, want, what):
    """Byte for byte, reporting the first line that differs (not pytest's diff of megabytes)."""
    if got != want:
        g, w = got.splitlines(True), want.splitlines(True)
        k = next((i for i, (a, b) in enumerate(zip(g, w)) if a != b), min(len(g), len(w)))
        pytest.fail("%s: line %d: Python %r, patrol sim %r (%d and %d lines)"
                    % (what, k + 1, g[k] if k < len(g) else None, w[k] if k < len(w) else None, len(g), len(w)))


def test_llround_is_cs():
    assert [_llround(v) for v in (0.5, 1.5, 2.5, -0.5, -2.5, 0.49999999999999994, 3599.6)] == [1, 2, 3, -1, -3, 0, 3600]


@pytest.mark.parametrize("seed", SEEDS)
def test_trace_equals_patrol_sim(root, patrol_bin, tmp_path, seed):
    maps = shipped_maps(root)
    assert len(maps) >= 5
    for path in maps:
        out = tmp_path / ("%s-%d.csv" % (path.name, seed))
        subprocess.run([patrol_bin, "sim", str(path), "--ticks", str(TICKS), "--seed", str(seed), "--quiet",
                        "--trace", str(out)], check=True)
        want = out.read_text()
        got = python_trace(patrol.load_map(path), seed, TICKS)
        assert want.count("\n") > TICKS
        assert_same(got, want, "%s seed %d" % (path.name, seed))


def test_save_load_continues_as_uninterrupted(root):
    for path in shipped_maps(root):
        level = patrol.load_map(path)
        whole = patrol.World(level, seed=5)
        rows = []
        for _ in range(400):
            whole.step()
            rows.append(trace_rows(whole))
        for at in (0, 1, 150, 333):
            w = patrol.World(level, seed=5)
            w.step(at)
            data = w.save()
            assert data == w.save()  # the same world gives the same bytes
            w.step(17)                # the saved world goes on; the save does not
            b = patrol.World.load(data, level)
            assert b.tick == at
            cont = []
            for _ in range(400 - at):
                b.step()
                cont.append(trace_rows(b))
            assert_same("".join(cont), "".join(rows[at:]), "%s loaded at tick %d" % (path.name, at))


def test_save_file_and_load_file(root, tmp_path):
    level = patrol.load_map(root / "maps" / "demo.map")
    w = patrol.World(level, seed=9)
    w.step(200)
    f = tmp_path / "slot.sav"
    w.save_file(f, source="map maps/demo.map\n")
    assert f.read_bytes() == w.save(source="map maps/demo.map\n")
    assert patrol.save_source(f.read_bytes()) == "map maps/demo.map\n"
    b = patrol.World.load_file(str(f), level, threads=2)
    for _ in range(300):
        w.step()
        b.step()
        assert trace_rows(b) == trace_rows(w)


def test_goto_orders_end_at_their_cell(root):
    """Every guard of the demo sent to a cell its pattern passes: the order-done event names
    that cell, the guard stands on it then, and the order is gone."""
    level = patrol.load_map(root / "maps" / "demo.map")
    w = patrol.World(level, seed=2)
    w.step(30)
    guards = [e for e in w.entities if e.kind == "guard"]
    assert len(guards) >= 5
    targets = {}
    for g in guards:
        # a cell on its own round, some ticks ahead of it: reachable and walkable
        probe = patrol.World(level, seed=2)
        probe.step(30 + 240)
        targets[g.id] = probe.entity(g.id).cell
        probe.close()
        w.order(g, "goto", targets[g.id])
        assert g.order == patrol.Order("goto", *targets[g.id])
    done = {}
    for _ in range(1800):
        w.step()
        for ev in w.events():
            if ev.kind == "order-done":
                assert ev.b == 1  # PT_ORDER_GOTO
                assert (ev.x, ev.y) == targets[ev.a]
                assert w.entity(ev.a).cell == targets[ev.a]
                done[ev.a] = ev.tick
                assert w.entity(ev.a).order is None
    assert len(done) == len(guards), "orders done: %r of %r" % (sorted(done), sorted(targets))


def test_hold_keeps_the_cell_and_resume_frees(root):
    level = patrol.load_map(root / "maps" / "demo.map")
    w = patrol.World(level, seed=4)
    g = w.find("courtyard")
    w.order(g, "hold")
    w.step()
    cell = g.cell
    for _ in range(240):
        w.step()
        assert g.cell == cell and g.state == "idle"
        assert g.order.kind == "hold"
    w.order(g, "resume")
    assert g.order is None
    w.step(240)
    assert g.cell != cell


def test_a_closed_door_blocks_and_events_show(root):
    """The demo's courtyard doors closed by the game (one "door" event each, by the game),
    then locked: over 3000 ticks no guard of a seed that walks through them stands on them,
    and they stay locked (guards open closed doors, never locked ones)."""
    level = patrol.load_map(root / "maps" / "demo.map")
    w = patrol.World(level, seed=3)
    doors = w.doors()
    assert len(doors) >= 3 and all(d.state == "open" for d in doors)
    w.step()
    for d in doors:
        w.set_door(d.x, d.y, "closed")
    evs = [e for e in w.events() if e.kind == "door"]
    assert [(e.x, e.y, e.b) for e in evs] == [(d.x, d.y, 1) for d in doors]
    assert all(e.a == 0xFFFFFFFF for e in evs)
    w.set_door(doors[0].x, doors[0].y, "closed")   # the state it has: no event
    assert len([e for e in w.events() if e.kind == "door"]) == len(doors)
    for d in doors:
        w.set_door(d.x, d.y, "locked")
    cells = {(d.x, d.y) for d in doors}
    for _ in range(3000):
        w.step()
        for e in w.entities:
            assert e.cell not in cells or e.kind == "boid", "%r walked through a locked door" % e
        assert not any(ev.kind == "door" for ev in w.events())
    assert all(d.state == "locked" for d in w.doors())
    w.set_door(doors[0].x, doors[0].y, "open")
    assert w.door(doors[0].x, doors[0].y) == "open"


def test_a_closed_door_blocks_the_player(root):
    """The game's player cannot be put on a closed door's cell; open, it can."""
    level = patrol.load_map(root / "maps" / "demo.map")
    w = patrol.World(level, seed=3)
    w.host_player()
    for d in w.doors():
        w.set_door(d.x, d.y, "closed")
        with pytest.raises(patrol.Error) as ei:
            w.teleport_player(d.x + 0.5, d.y + 0.5)
        assert ei.value.code == "PT_ERR_NOT_WALKABLE"
        w.set_door(d.x, d.y, "open")
        w.teleport_player(d.x + 0.5, d.y + 0.5)
        w.step()
        assert w.player.cell == (d.x, d.y)
