# SPDX-License-Identifier: Zlib
"""Level tools: check a file as ``patrol check`` does, solve a level, run a .test file.

Each calls the same C functions as the patrol command (patrol/level.h, solve.h, testing.h),
so the verdicts, the routes and the error messages are the command's.
"""
import collections
import os
import re

from ._core import Error, _check, _path, _str, ffi, lib
from .map import Map, _fini_lib


class CheckWarning(collections.namedtuple("CheckWarning", "file line col message")):
    """A warning of :func:`check`: the file loads, but does not play as meant.

    ``str(w)`` is the line ``patrol check`` prints: ``file:line:col: warning: message``.
    """
    __slots__ = ()

    def __str__(self):
        where = self.file
        if self.line > 0:
            where += ":%d" % self.line
            if self.col > 0:
                where += ":%d" % self.col
        return "%s: warning: %s" % (where, self.message)


def file_kind(path):
    """The kind of file path is, as the patrol command tells them apart: "map", "Tiled map",
    "Tiled tileset", "pattern file", "steering file", "test file", "recording", "level list"
    or "script" (by its first significant line's first word, else its extension; a file that
    cannot be read goes by its extension, else counts as a map)."""
    return _str(lib.pt_file_kind_name(lib.pt_file_kind_of(_path(path))))


# --- check -----------------------------------------------------------------------------------

@ffi.def_extern()
def _patrol_level_report(user, problem, kind):
    """pt_level_check_map's report: each problem copied out at once (C reuses the struct)."""
    found = ffi.from_handle(user)
    if kind == lib.PT_LEVEL_WARNING:
        found.append((kind, CheckWarning(_str(problem.file), problem.line, problem.col, _str(problem.message))))
    else:
        found.append((kind, Error._from_c(problem)))


def _check_map(cpath):
    found = []
    handle = ffi.new_handle(found)
    m = ffi.new("pt_map *")
    plib = ffi.new("pt_patlib *")
    loaded = ffi.new("int *")
    lib.pt_level_check_map(cpath, m, plib, lib._patrol_level_report, handle, loaded)
    try:
        errors = [p for k, p in found if k != lib.PT_LEVEL_WARNING]
        if errors:
            raise errors[0]
        err = ffi.new("pt_error *")
        w = lib.pt_world_create(m, plib, ffi.NULL, err)  # whatever else the world refuses
        if w == ffi.NULL:
            raise Error._from_c(err)
        lib.pt_world_destroy(w)
    finally:
        if loaded[0]:
            lib.pt_patlib_fini(plib)
            lib.pt_map_fini(m)
    return [p for k, p in found if k == lib.PT_LEVEL_WARNING]


def _check_pattern_file(cpath, err):
    plib = ffi.new("pt_patlib *")
    lib.pt_patlib_init(plib)
    try:
        _check(lib.pt_patlib_load(plib, cpath, err), err)
    finally:
        lib.pt_patlib_fini(plib)


def _check_steer_file(cpath, err):
    sf = ffi.new("pt_steer_file *")
    lib.pt_steer_file_init(sf)
    try:
        _check(lib.pt_steer_file_load(sf, cpath, err), err)
    finally:
        lib.pt_steer_file_fini(sf)


def _check_script(cpath, err):
    s = ffi.new("pt_script *")
    try:
        _check(lib.pt_script_load(s, cpath, err), err)
    finally:
        lib.pt_script_fini(s)


def _check_test_file(cpath, err):
    tf, m, plib = ffi.new("pt_testfile *"), ffi.new("pt_map *"), ffi.new("pt_patlib *")
    _check(lib.pt_level_load_test(cpath, tf, m, plib, err), err)  # on failure: nothing to free
    lib.pt_testfile_fini(tf)
    lib.pt_patlib_fini(plib)
    lib.pt_map_fini(m)


def check(path):
    """Checks a file as ``patrol check FILE`` does and returns its warnings.

    The file is read as what it is (:func:`file_kind`): a map (.map, Tiled .tmx: the map,
    every pattern file it names, every entity's pattern linted as the world places it, its
    steering file, then the world made from it), a pattern file or a steering file (its
    syntax), a test file (its map as :func:`load_map` loads it, and its names, cells and
    routes against that map), a script (its syntax) or a Tiled tileset (read as a one-tile
    map's). Raises :class:`patrol.Error` for the
    first error ``patrol check`` prints for the file; otherwise returns the
    :class:`CheckWarning` list it prints (a map's only; [] for the other kinds). Recordings
    and level lists are checked by the command only: ValueError.
    """
    cpath = _path(path)
    kind = lib.pt_file_kind_of(cpath)
    err = ffi.new("pt_error *")
    if kind in (lib.PT_FILE_MAP, lib.PT_FILE_TMX):
        return _check_map(cpath)
    if kind == lib.PT_FILE_PAT:
        _check_pattern_file(cpath, err)
    elif kind == lib.PT_FILE_STEER:
        _check_steer_file(cpath, err)
    elif kind == lib.PT_FILE_TEST:
        _check_test_file(cpath, err)
    elif kind == lib.PT_FILE_SCRIPT:
        _check_script(cpath, err)
    elif kind == lib.PT_FILE_TSX:
        _check(lib.pt_level_check_tileset(cpath, err), err)
    else:
        raise ValueError("patrol.check checks maps, tilesets, pattern, steering, test and script files; %s is a %s "
                         "(run: patrol check FILE)" % (os.fsdecode(cpath), _str(lib.pt_file_kind_name(kind))))
    return []


# --- solve -----------------------------------------------------------------------------------

_GAIT_OPTS = {"any": 0, "walk": 1 + lib.PT_GAIT_WALK, "sneak": 1 + lib.PT_GAIT_SNEAK, "run": 1 + lib.PT_GAIT_RUN}
_WHY = {lib.PT_SOLVE_WHY_NONE: "", lib.PT_SOLVE_WHY_HORIZON: "horizon",
        lib.PT_SOLVE_WHY_UNREACHABLE: "unreachable", lib.PT_SOLVE_WHY_SEEN_AT_START: "seen at start",
        lib.PT_SOLVE_WHY_ANIMAL_AT_START: "animal at start", lib.PT_SOLVE_WHY_MARGIN_AT_START: "margin at start"}
_NAME = re.compile(r"^[A-Za-z0-9_\-./]{1,47}$")


class Route:
    """What :func:`solve` found: a route no guard sees or hears, or why there is none.

    ``found`` (a Route is true when found), ``why`` ("" when found; else "horizon": none
    within the horizon, "unreachable": no goal tile can be walked to, "seen at start",
    "animal at start", "margin at start": on tick 1), ``ticks`` (the tick the player stands
    on the goal), ``cells`` (the player's cell on ticks 0..ticks), ``start``, ``goal``,
    ``first_move_tick`` (-1: the start is a goal tile), ``margin_ticks``, ``margin_tiles``
    (-1: nothing seen within 24 tiles), ``gait`` ("walk", "sneak", "run"), ``speed`` (the
    map's player speed, tiles/s), ``seeds_ok`` of ``nseeds``, ``max_ticks`` (the horizon),
    ``name`` and ``text``: the pattern file ``patrol solve --out`` writes ("" when not
    found). Pass it as ``patrol.World(map, player_pattern=route)``: the route owns the
    pattern library that holds its pattern, and the world keeps the route alive.
    """

    def __init__(self, r, name, text, map_path):
        self.found = bool(r.found)
        self.why = _WHY.get(r.why, "")
        self.ticks = r.ticks
        self.start = (r.start_x, r.start_y)
        self.goal = (r.goal_x, r.goal_y)
        self.cells = [(r.cells[t].x, r.cells[t].y) for t in range(r.ticks + 1)] if r.found else []
        self.first_move_tick = r.first_move_tick
        self.margin_ticks = r.margin_ticks
        self.margin_tiles = r.margin_tiles
        self.gait = _str(lib.pt_gait_name(r.gait)) if r.found else ""
        self.speed = r.speed
        self.nseeds = r.nseeds
        self.seeds_ok = r.seeds_ok
        self.max_ticks = r.max_ticks
        self.name = name
        self.text = text
        self._map_path = map_path
        self._lib = None

    def __bool__(self):
        return self.found

    @property
    def _pattern(self):
        """The route as a const pt_pattern * (what World(player_pattern=) reads), parsed from
        ``text`` into a library this route owns, once."""
        if not self.found:
            raise Error("no route to walk on %s (%s)" % (self._map_path, self.why))
        if self._lib is None:
            plib = ffi.gc(ffi.new("pt_patlib *"), _fini_lib)
            lib.pt_patlib_init(plib)
            data = self.text.encode("utf-8")
            err = ffi.new("pt_error *")
            _check(lib.pt_patlib_parse(plib, data, len(data), (self.name + ".pat").encode("utf-8"), err), err)
            self._lib = plib
        return lib.pt_patlib_find(self._lib, self.name.encode("utf-8"))

    def __repr__(self):
        if not self.found:
            return "<patrol.Route none (%s)>" % self.why
        return "<patrol.Route %d ticks %s -> %s, %s>" % (self.ticks, self.start, self.goal, self.gait)


def _range(name, v, lo, hi):
    try:
        f = float(v)
    except (TypeError, ValueError):
        raise TypeError("%s wants a number, not %r" % (name, v)) from None
    if not lo <= f <= hi:
        raise ValueError("%s is %g..%g, not %r" % (name, lo, hi, v))
    return f


def solve(map, gait="any", max_time=60.0, seed=None, seeds=1, margin=0.0, margin_time=0.0, leave_after=0,
          name="solved"):
    """Solves a level as ``patrol solve MAP --no-window`` does (docs/solve.md): a route from
    the player's start to a goal tile on which no guard ever sees or hears the player.

    ``gait``: "any" (the earliest arrival; ties: walk, then sneak), "walk", "sneak" or
    "run"; ``max_time``: the horizon in seconds (0.1..1666, 60); ``seed``: the guards' seed
    (None: the map's, or 1); ``seeds``: the route must hold for seeds seed..seed+seeds-1
    (1..100000); ``margin``: tiles (0..64) to keep away from every seen cell;
    ``margin_time``: seconds (0..10) no cell of the route is seen before or after the player
    stands on it; ``leave_after``: no step off the start before this tick (0..100000);
    ``name``: the pattern's name. Returns a :class:`Route` (false when there is none);
    raises :class:`patrol.Error` when the level cannot be solved at all (no goal tile, a
    player that cannot step, over the memory limit), TypeError / ValueError for bad
    arguments. The start window is not searched (it costs 10x the time).
    """
    if not isinstance(map, Map):
        raise TypeError("solve needs a patrol.Map (patrol.load_map), not %s" % type(map).__name__)
    if gait not in _GAIT_OPTS:
        raise ValueError("gait is one of %s, not %r" % (", ".join(_GAIT_OPTS), gait))
    if not isinstance(name, str) or not _NAME.match(name):
        raise ValueError("name %r: letters, digits, _ - . / and at most 47 bytes" % (name,))
    o = ffi.new("pt_solve_opts *")
    o.max_ticks = max(1, int(_range("max_time", max_time, 0.1, lib.PT_SOLVE_MAX_TICKS // 60) * 60.0 + 0.5))
    if seed is not None:
        if not isinstance(seed, int) or not 0 <= seed < 2**64:
            raise ValueError("seed is 0..2**64-1, not %r" % (seed,))
        o.seed = seed
    if not isinstance(seeds, int) or not 1 <= seeds <= 100000:
        raise ValueError("seeds is 1..100000, not %r" % (seeds,))
    o.nseeds = seeds
    o.margin = _range("margin", margin, 0, 64)
    o.margin_ticks = int(_range("margin_time", margin_time, 0, lib.PT_SOLVE_MARGIN_CAP // 60) * 60.0 + 0.5)
    if not isinstance(leave_after, int) or not 0 <= leave_after <= lib.PT_SOLVE_MAX_TICKS:
        raise ValueError("leave_after is 0..%d ticks, not %r" % (lib.PT_SOLVE_MAX_TICKS, leave_after))
    o.leave_after = leave_after
    o.gait = _GAIT_OPTS[gait]
    o.window = 0
    r = ffi.new("pt_solve_result *")
    err = ffi.new("pt_error *")
    try:
        rc = lib.pt_solve(map._map, map._lib, o, r, err)
        if rc < 0:
            if not err.file[0]:  # as patrol solve says it: the map's name first
                e = Error._from_c(err, rc)
                e.file = map.path
                raise Error(e.message, e.file, e.line, e.col, e.code, e.source)
            raise Error._from_c(err, rc)
        text = ""
        cname = name.encode("utf-8")
        if r.found:
            n = lib.pt_solve_pattern_text(r, cname, ffi.NULL, 0)
            buf = ffi.new("char[]", n + 1)
            lib.pt_solve_pattern_text(r, cname, buf, n + 1)
            text = ffi.string(buf, n).decode("utf-8")
        return Route(r, name, text, map.path)
    finally:
        lib.pt_solve_result_fini(r)


# --- .test files -----------------------------------------------------------------------------

class ExpectResult(collections.namedtuple("ExpectResult", "kind line text status passed message tick")):
    """One expectation's run: ``kind`` ("visits", "stays", "covers", "unseen", "caught",
    "goal", "solvable"), ``line`` (of the test file), ``text`` (the line as written),
    ``status`` ("pass", "fail" or "skip"), ``passed`` (status == "pass"), ``message`` (what
    happened, as ``patrol test`` prints it after the expectation), ``tick`` (the tick that
    decided it)."""
    __slots__ = ()

    @property
    def name(self):
        return self.kind


class TestRun:
    """What :func:`run_test` found: ``results`` (an :class:`ExpectResult` per expectation, in
    file order), ``passed``, ``failed``, ``skipped`` (counts), ``ok`` (none failed: the
    exit status of ``patrol test`` is 0), ``path`` and ``map_path``."""

    __test__ = False  # not a pytest class

    def __init__(self, path, map_path, results):
        self.path = path
        self.map_path = map_path
        self.results = results
        self.passed = sum(r.status == "pass" for r in results)
        self.failed = sum(r.status == "fail" for r in results)
        self.skipped = sum(r.status == "skip" for r in results)
        self.ok = self.failed == 0

    def __bool__(self):
        return self.ok

    def __iter__(self):
        return iter(self.results)

    def __len__(self):
        return len(self.results)

    def __repr__(self):
        return "<patrol.TestRun %r: %d passed, %d failed, %d skipped>" % (self.path, self.passed, self.failed,
                                                                          self.skipped)


_STATUS = {lib.PT_TEST_PASS: "pass", lib.PT_TEST_FAIL: "fail", lib.PT_TEST_SKIP: "skip"}


def run_test(path):
    """Runs a .test file as ``patrol test FILE`` does (docs/testing.md): loads it with its map
    and patterns (pt_level_load_test), then runs each expectation on its own fresh world
    (pt_level_run_expect). Returns a :class:`TestRun`; raises :class:`patrol.Error`, located
    as the command prints it, when the file or its map has a problem or a world refuses it.
    """
    cpath = _path(path)
    tf, m, plib = ffi.new("pt_testfile *"), ffi.new("pt_map *"), ffi.new("pt_patlib *")
    err = ffi.new("pt_error *")
    _check(lib.pt_level_load_test(cpath, tf, m, plib, err), err)  # on failure: nothing to free
    try:
        results = []
        res = ffi.new("pt_test_result *")
        for i in range(tf.count):
            st = _check(lib.pt_level_run_expect(tf, i, m, plib, res, err), err)
            x = tf.items[i]
            results.append(ExpectResult(_str(lib.pt_expect_kind_name(x.kind)), x.line, _str(x.text), _STATUS[st],
                                        st == lib.PT_TEST_PASS, _str(res.text), res.tick))
        return TestRun(_str(tf.path), _str(tf.map_path), results)
    finally:
        lib.pt_testfile_fini(tf)
        lib.pt_patlib_fini(plib)
        lib.pt_map_fini(m)
