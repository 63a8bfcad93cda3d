# SPDX-License-Identifier: Zlib
"""Maps: loaded with the pattern files they name, as the patrol command loads them."""
from ._core import _check, _path, _str, ffi, lib


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
