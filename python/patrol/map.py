# SPDX-License-Identifier: Zlib
"""Maps: loaded with the pattern files they name, as the patrol command loads them."""
import collections
import operator

from ._core import _check, _path, _str, ffi, lib

Tile = collections.namedtuple("Tile", "char name walkable opaque goal sprite")
Tile.__doc__ = """A tile kind of a map's legend: its grid character, name, flags, and its sprite
index in assets/tiles.png as the map gives it (-1: the renderer picks one by name)."""
Obstacle = collections.namedtuple("Obstacle", "x y radius sprite")
Obstacle.__doc__ = """A round obstacle: its centre and radius in tiles, its props.png index (1 a
pillar, 2 a tree)."""


def _tile(d):
    f = d.flags
    return Tile(d.ch.decode("latin-1"), _str(d.name), bool(f & lib.PT_TILE_WALKABLE),
                bool(f & lib.PT_TILE_OPAQUE), bool(f & lib.PT_TILE_GOAL), d.sprite)


def _tile_at(m, x, y):
    """The Tile of cell (x, y) of the pt_map m: TypeError for a non-integer, IndexError outside."""
    for v, what in ((x, "x"), (y, "y")):
        if isinstance(v, bool) or not hasattr(v, "__index__"):
            raise TypeError("%s must be an integer, not %s" % (what, type(v).__name__))
    x, y = operator.index(x), operator.index(y)
    if not (0 <= x < m.w and 0 <= y < m.h):
        raise IndexError("cell %d,%d is outside the %dx%d map" % (x, y, m.w, m.h))
    return _tile(m.legend[m.tiles[y * m.w + x]])


class Map:
    """A map (.map or Tiled .tmx) and the pattern library its entities use.

    Made by :func:`load_map`. Read-only from Python; a :class:`patrol.World` made from it
    keeps it alive as long as the world lives.
    """

    def __init__(self, _map, _lib):
        self._map = _map      # pt_map *, freed by its ffi.gc destructor
        self._lib = _lib      # pt_patlib *, likewise

    @property
    def width(self):
        return self._map.w

    @property
    def height(self):
        return self._map.h

    @property
    def name(self):
        """The map's title ("" when it gives none)."""
        return _str(self._map.name)

    @property
    def path(self):
        return _str(self._map.path)

    @property
    def seed(self):
        """The map's default world seed (0: none given, the world uses 1)."""
        return self._map.seed

    def tile(self, x, y):
        """The :class:`Tile` of cell (x, y) as the file gives it (its `door` lines change the cells
        in a World only: see World.tile).
        TypeError for a non-integer, IndexError for a cell outside the map."""
        return _tile_at(self._map, x, y)

    @property
    def legend(self):
        """Every tile kind the map knows, a tuple of :class:`Tile` in legend order (the default
        kinds first)."""
        return tuple(_tile(self._map.legend[i]) for i in range(self._map.nlegend))

    @property
    def obstacles(self):
        """The map's round obstacles, a tuple of :class:`Obstacle` in declaration order."""
        return tuple(Obstacle(o.x, o.y, o.r, o.sprite) for o in
                     (self._map.obstacles[i] for i in range(self._map.nobstacles)))

    def __repr__(self):
        return "<patrol.Map %r %dx%d>" % (self.path, self.width, self.height)


def _fini_map(m):
    lib.pt_map_fini(m)


def _fini_lib(p):
    lib.pt_patlib_fini(p)


def load_map(path):
    """Loads a map and the patterns it names as every patrol command loads one (pt_level_load).

    The file must be a map (a text .map, or a Tiled .tmx by its name): another kind of file
    (a pattern file, a test file, ...) is refused at its first word; then the map, every
    pattern file it names, and every entity's pattern linted against the map: the first
    problem refuses it. Returns a :class:`Map`; raises :class:`patrol.Error` with the file,
    line, column and message the patrol command prints (``patrol sim FILE``'s first line).
    """
    cpath = _path(path)
    err = ffi.new("pt_error *")
    m = ffi.new("pt_map *")
    plib = ffi.new("pt_patlib *")
    _check(lib.pt_level_load(cpath, m, plib, err), err)  # on failure both hold nothing
    return Map(ffi.gc(m, _fini_map), ffi.gc(plib, _fini_lib))
