# SPDX-License-Identifier: Zlib
"""The package loads a map, steps a world and reads it."""
import pytest

import patrol


def test_demo_steps(root):
    level = patrol.load_map(root / "maps" / "demo.map")
    assert level.width > 0 and level.height > 0
    w = patrol.World(level, seed=3)
    w.step(120)
    assert w.tick == 120
    assert w.player.kind == "player"
    guards = [e for e in w.entities if e.kind == "guard"]
    assert guards and all(g.name for g in guards)
    for e in w.entities:
        assert 0 <= e.x < level.width and 0 <= e.y < level.height


def test_missing_file_raises():
    with pytest.raises(patrol.Error) as ei:
        patrol.load_map("no/such/file.map")
    assert ei.value.file == "no/such/file.map"
    assert ei.value.code == "PT_ERR_IO"
    # a traceback names the class users catch, not the module that defines it
    assert "%s.%s" % (type(ei.value).__module__, type(ei.value).__qualname__) == "patrol.Error"


def test_views_of_a_closed_world_raise(root):
    w = patrol.World(patrol.load_map(root / "maps" / "demo.map"))
    p = w.player
    w.close()
    assert not p.alive
    with pytest.raises(patrol.Error):
        p.cell
    with pytest.raises(patrol.Error):
        w.step()
