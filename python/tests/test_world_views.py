# SPDX-License-Identifier: Zlib
"""Entity views are read-only and say what a game needs; the world's own reads (phase,
noises, shouts, catches, hiding, light) over many ticks and seeds."""
import math

import pytest

import patrol

ATTRS = ("id", "name", "kind", "state", "cell", "x", "y", "pos", "heading", "awareness", "suspicious_at",
         "chase_at", "sees_player", "view", "hearing", "speed", "motion", "memories", "order", "alive", "world")


@pytest.fixture
def demo(root):
    return patrol.load_map(root / "maps" / "demo.map")


def test_views_are_read_only(demo):
    w = patrol.World(demo)
    for e in (w.player, w.entity(1)):
        for a in ATTRS:
            getattr(e, a)
            with pytest.raises(AttributeError):
                setattr(e, a, 1)
        with pytest.raises(AttributeError):
            e.new_attribute = 1
        with pytest.raises(AttributeError):
            del e.id
    assert w.entity(1) == w.entity(1) and hash(w.entity(1)) == hash(w.entity(1))
    assert w.entity(1) != w.entity(2)


def test_views_read_the_world_over_many_ticks(demo):
    """Three seeds, 1500 ticks: every value in its documented range, the thresholds the
    awareness runs between, memories in kind order and still certain, a chase seen."""
    states = set()
    for seed in (1, 2, 3):
        w = patrol.World(demo, seed=seed)
        guards = [e for e in w.entities if e.kind == "guard"]
        for g in guards:
            assert 0 < g.suspicious_at < g.chase_at
            d, a = g.view
            assert d > 0 and 0 < a <= 2 * math.pi
            assert g.speed > 0 and g.hearing > 0 and g.motion in ("tile", "continuous")
        kinds = {e.kind for e in w.entities}
        assert kinds == {"player", "guard", "prey", "boid"}
        for _ in range(1500):
            w.step()
            for g in guards:
                states.add(g.state)
                assert 0 <= g.awareness <= 1.5 * g.chase_at + 1e-9
                assert isinstance(g.sees_player, bool)
                ms = g.memories
                order = ["seen", "heard", "told"]
                assert [m.kind for m in ms] == sorted((m.kind for m in ms), key=order.index)
                for m in ms:
                    assert 0 < m.certainty <= 1 and m.tick <= w.tick
                    assert (m.x, m.y) == (int(m.px), int(m.py))
                x, y = g.cell
                px, py = g.pos
                assert 0 <= x < demo.width and 0 <= y < demo.height
                assert abs(px - (x + 0.5)) <= 1 and abs(py - (y + 0.5)) <= 1
                assert g.order is None
            assert w.player.memories == []
    assert "chase" in states and "patrol" in states


def test_phase_caught_total_and_events(demo):
    """caught_total counts the "caught" events; the phase follows its "phase" events."""
    names = ("normal", "alert", "evasion", "caution")
    for seed in (1, 4):
        w = patrol.World(demo, seed=seed)
        assert w.phase == patrol.Phase("normal", 0.0)
        caught = 0
        phase = "normal"
        for _ in range(3000):
            w.step()
            for ev in w.events():
                assert ev.tick == w.tick
                if ev.kind == "caught":
                    caught += 1
                if ev.kind == "phase":
                    assert names[ev.b] == phase
                    phase = names[ev.a]
            p = w.phase
            assert p.name == phase
            assert p.seconds_left >= 0 and (p.seconds_left > 0) == (p.name in ("evasion", "caution"))
        assert w.caught_total == caught
    assert caught > 0


def test_noises_and_shouts(demo):
    w = patrol.World(demo, seed=1)
    kinds, shouts = set(), 0
    for _ in range(3000):
        w.step()
        for n in w.noises():
            assert n.tick == w.tick and n.loudness > 0 and n.kind != "shout"
            kinds.add(n.kind)
        for s in w.shouts():
            assert s.kind == "shout" and s.tick == w.tick
            shouts += 1
    assert "footstep" in kinds
    assert shouts > 0
    w.noise(10, 37, 12.5)
    w.noise(10, 36, 1000)
    assert not [n for n in w.noises() if n.kind == "game"]  # made by the next step, not before
    w.step()
    game = [n for n in w.noises() if n.kind == "game"]
    assert game == [patrol.Noise(w.tick, 10, 37, 12.5, "game"), patrol.Noise(w.tick, 10, 36, 256.0, "game")]


def test_hidden_visibility_and_light(root):
    level = patrol.load_map(root / "maps" / "cellars.map")
    w = patrol.World(level)
    lights = w.lights()
    assert [l.name for l in lights] == ["cellar_torch", "hall_torch"]
    assert lights[0] == patrol.Light(0, "cellar_torch", 6, 9, 5.0, 1.0, True)
    assert w.light_at(6, 9) == pytest.approx(1.0)
    assert w.light_at(1, 1) == pytest.approx(0.2, abs=1e-3)  # the ambient level, out of the torches' reach
    assert w.light_at(-1, 0) == 0.0 and w.light_at(999, 999) == 0.0
    seen_hidden = False
    for _ in range(600):
        w.step()
        v = w.visibility
        assert 0 <= v <= 1
        seen_hidden |= w.player_hidden
        assert isinstance(w.player_hidden, bool)
    w.host_player()
    w.teleport_player(3.5, 3.5)   # a cask: cover
    w.step()
    assert w.player.cell == (3, 3)
    assert w.player_hidden == (not any(g.sees_player for g in w.entities if g.kind == "guard"))
