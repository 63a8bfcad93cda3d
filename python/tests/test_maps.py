# SPDX-License-Identifier: Zlib
"""Map.tile, Map.legend, Map.obstacles, World.tile and Entity.flock against an independent
reading of every shipped map: the grid text, the default legend (docs/formats.md) and the
`tile` / `obstacle` / `flock` lines; the Tiled demo against the .map it mirrors."""
import shlex

import pytest

import patrol

from conftest import ROOT

# docs/formats.md, "The legend": char -> (name, walkable, opaque, goal, sprite).
DEFAULT = {".": ("floor", 1, 0, 0, 0), "#": ("wall", 0, 1, 0, 1), "~": ("water", 0, 0, 0, 2),
           "=": ("bridge", 1, 0, 0, 4), "+": ("door", 1, 0, 0, 5), ",": ("grass", 1, 0, 0, 6),
           "*": ("bush", 1, 1, 0, 7), "E": ("exit", 1, 0, 1, 8), ":": ("dirt", 1, 0, 0, 9),
           "T": ("tree", 0, 1, 0, 10)}
MAPS = sorted(ROOT.glob("maps/*.map"))


def read_map_text(path):
    """(grid rows, legend {char: (name, walkable, opaque, goal, sprite)}, obstacle lines,
    {flock name: kind}) from the .map's text."""
    legend, rows, obstacles, flocks = dict(DEFAULT), None, [], {}
    lines = path.read_text().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if line.strip() == "grid":
            rows = []
            while lines[i].strip() != "end":
                rows.append(lines[i].rstrip())
                i += 1
            continue
        items = shlex.split(line, comments=True)
        if not items:
            continue
        keys = dict(it.split("=", 1) for it in items if "=" in it)
        if items[0] == "tile":
            flags = set(items[3:])
            legend[items[1]] = (items[2], int("walkable" in flags), int("opaque" in flags),
                                int("goal" in flags), int(keys.get("sprite", -1)))
        elif items[0] == "obstacle":
            x, y = map(float, keys["at"].split(","))
            obstacles.append((x, y, float(keys["r"]), {"pillar": 1, "tree": 2}[keys.get("sprite", "pillar")]))
        elif items[0] == "flock":
            flocks[items[1]] = keys.get("kind", "hound")
    return rows, legend, obstacles, flocks


def as_tuple(t):
    return (t.name, int(t.walkable), int(t.opaque), int(t.goal), t.sprite)


@pytest.mark.parametrize("path", MAPS, ids=lambda p: p.name)
def test_every_cell_of_every_map_reads_as_its_text(path):
    m = patrol.load_map(path)
    rows, legend, obstacles, flocks = read_map_text(path)
    assert (m.height, m.width) == (len(rows), max(map(len, rows)))
    assert {t.char: as_tuple(t) for t in m.legend} == legend
    for y in range(m.height):
        for x in range(m.width):
            ch = rows[y][x] if x < len(rows[y]) else "."
            t = m.tile(x, y)
            assert (t.char, as_tuple(t)) == (ch, legend[ch]), (path.name, x, y)
    assert [tuple(o) for o in m.obstacles] == pytest.approx(obstacles)
    w = patrol.World(m)
    for e in w.entities:
        if e.kind == "boid":
            assert e.flock == flocks[e.name.rsplit(".", 1)[0]]
        else:
            assert e.flock is None
    assert sum(e.flock is not None for e in w.entities) == sum(e.kind == "boid" for e in w.entities)


def test_the_tiled_demo_has_the_cells_of_the_map_it_mirrors():
    tmx, ref = patrol.load_map(ROOT / "maps" / "demo.tmx"), patrol.load_map(ROOT / "maps" / "demo.map")
    assert (tmx.width, tmx.height) == (ref.width, ref.height)
    kinds = set()
    for y in range(ref.height):
        for x in range(ref.width):
            a, b = tmx.tile(x, y), ref.tile(x, y)
            assert (a.walkable, a.opaque, a.goal) == (b.walkable, b.opaque, b.goal), (x, y)
            kinds.add(a.name)
    assert len(kinds) >= 5          # walls, floor, grass, water, doors: not all floor
    assert len(tmx.obstacles) == len(ref.obstacles)


def test_world_tile_follows_set_tile_and_doors(tmp_path):
    p = tmp_path / "d.map"
    p.write_text("format 1\nplayer at=1,1\ndoor 2,1 locked\ntile x crate opaque sprite=12\n"
                 "grid\n#####\n#.+x#\n#####\nend\n")
    m = patrol.load_map(p)
    w = patrol.World(m)
    assert m.tile(3, 1) == patrol.Tile("x", "crate", False, True, False, 12)
    assert m.tile(2, 1).name == "door" and w.tile(2, 1).name == "door_locked"
    assert not w.tile(2, 1).walkable and w.tile(2, 1).opaque
    w.set_door(2, 1, "open")
    assert w.tile(2, 1) == m.tile(2, 1)
    w.set_tile(1, 1, "x")
    w.step()
    assert w.tile(1, 1) == m.tile(3, 1) and m.tile(1, 1).name == "floor"


def test_cells_outside_the_map_and_bad_arguments_raise():
    m = patrol.load_map(ROOT / "maps" / "demo.map")
    w = patrol.World(m)
    for read in (m.tile, w.tile):
        for x, y in ((-1, 0), (0, -1), (m.width, 0), (0, m.height), (2**70, 0)):
            with pytest.raises(IndexError):
                read(x, y)
        for x, y in ((1.0, 0), (0, "1"), (True, 0), (None, 0)):
            with pytest.raises(TypeError):
                read(x, y)
    w.close()
    with pytest.raises(patrol.Error):
        w.tile(0, 0)
