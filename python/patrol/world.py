# SPDX-License-Identifier: Zlib
"""The world: stepped from Python, read through views (entity.py), changed through its
controls, saved and loaded."""
from ._core import Error, _check, _path, _str, ffi, lib
from .entity import (_CODE, _DOOR_NAMES, _DOOR_STATES, _GAITS, _INT_MAX, Door, Entity, Event, Light,
                     Memory, Noise, Order, Phase, _cell, _cint, _code_error, _index, _ranged, _real, _rows,
                     _text)
from .map import Map, _tile_at

__all__ = ["World", "Entity", "Event", "Noise", "Memory", "Order", "Phase", "Door", "Light", "save_source"]


def _destroy_world(w):
    lib.pt_world_destroy(w)


class World:
    """A running world made from a :class:`Map`.

    ``seed`` (None: the map's), ``controlled`` (the player moves by :meth:`set_input`, as in
    ``patrol play``; otherwise it walks its pattern, as in ``patrol sim``),
    ``end_round_on_catch`` (a catch ends the round; otherwise the player respawns),
    ``tick_hz`` (None: 60) and ``threads`` (for the flocks; the trace is the same for any).
    ``player_pattern``: a pattern the player walks instead of the map's (an object whose
    ``_pattern`` is a ``const pt_pattern *``, such as a solver's route); the world keeps it alive.
    The world keeps its map alive. :meth:`close` frees it at once; a closed world, and every
    view of it, raises :class:`patrol.Error`.
    """

    def __init__(self, map, seed=None, controlled=False, end_round_on_catch=False, tick_hz=None,
                 threads=1, player_pattern=None):
        if not isinstance(map, Map):
            raise TypeError("World needs a patrol.Map (patrol.load_map), not %s" % type(map).__name__)
        desc = ffi.new("pt_world_desc *")
        desc.seed = 0 if seed is None else _ranged(seed, "seed", 0, 2**64 - 1)
        desc.tick_hz = 0 if tick_hz is None else _ranged(tick_hz, "tick_hz", 1, _INT_MAX)
        desc.player_controlled = 1 if controlled else 0
        desc.end_round_on_catch = 1 if end_round_on_catch else 0
        desc.threads = _ranged(threads, "threads", 0, 64)
        if player_pattern is not None:
            desc.player_pattern = player_pattern._pattern
        err = ffi.new("pt_error *")
        w = lib.pt_world_create(map._map, map._lib, desc, err)
        if w == ffi.NULL:
            raise Error._from_c(err)
        self._adopt(w, map, player_pattern)

    def _adopt(self, w, map, keep=None):
        self._w = ffi.gc(w, _destroy_world)
        self._mapref = map
        self._keep = keep     # what the C world points into besides the map (a player pattern)

    @property
    def _ptr(self):
        w = self._w
        if w is None:
            raise Error("the world is closed")
        return w

    def close(self):
        """Frees the world now (it is freed when collected otherwise). Idempotent."""
        w, self._w = self._w, None
        if w is not None:
            ffi.release(w)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @property
    def closed(self):
        return self._w is None

    @property
    def map(self):
        return self._mapref

    def _in_map(self, x, y):
        return 0 <= x < self._mapref.width and 0 <= y < self._mapref.height

    # --- time -------------------------------------------------------------------------------
    def step(self, n=1):
        """Advances n fixed ticks (1/tick_hz s each)."""
        w = self._ptr
        for _ in range(_index(n, "n")):
            lib.pt_world_step(w)

    @property
    def tick(self):
        return lib.pt_world_tick(self._ptr)

    @property
    def dt(self):
        """Seconds a tick lasts."""
        return lib.pt_world_dt(self._ptr)

    @property
    def round(self):
        """0 running, 1 won (the goal reached), -1 lost (caught, with end_round_on_catch)."""
        return lib.pt_world_round(self._ptr)

    @property
    def phase(self):
        """The alert phase after the last step: ``Phase(name, seconds_left)``."""
        left = ffi.new("double *")
        p = lib.pt_world_phase(self._ptr, left)
        return Phase(_str(lib.pt_phase_name(p)), left[0])

    @property
    def caught_total(self):
        """How many times the player was caught since the world was made."""
        return lib.pt_world_caught_total(self._ptr)

    @property
    def player_hidden(self):
        """True when the player stands in cover and no guard noticed it in the last step."""
        return bool(lib.pt_world_player_hidden(self._ptr))

    @property
    def visibility(self):
        """How visible the player is now, 0..1: the value the next step's sight uses."""
        return lib.pt_world_visibility(self._ptr)

    def light_at(self, x, y):
        """The light level of cell (x, y) now, 0..1 (0 outside the map)."""
        return lib.pt_world_light_at(self._ptr, _cint(x, "x"), _cint(y, "y"))

    # --- the player's controls -------------------------------------------------------------
    def set_input(self, dx, dy):
        """The player's move for the next ticks, dx, dy in {-1, 0, 1} (both 0: stand). Read only
        by a world made with ``controlled=True``."""
        if dx not in (-1, 0, 1) or dy not in (-1, 0, 1):
            raise ValueError("set_input wants dx, dy in -1, 0, 1, got %r, %r" % (dx, dy))
        lib.pt_world_set_input(self._ptr, dx, dy)

    @property
    def gait(self):
        """The player's gait: "walk", "sneak" or "run" (docs/ai.md, "Noises")."""
        return _str(lib.pt_gait_name(lib.pt_world_gait(self._ptr)))

    @gait.setter
    def gait(self, name):
        g = _GAITS.get(name)
        if g is None:
            raise ValueError("gait is one of %s, not %r" % (", ".join(_GAITS), name))
        lib.pt_world_set_gait(self._ptr, g)

    def host_player(self):
        """From now on the game moves the player (:meth:`move_player`, :meth:`teleport_player`),
        for the rest of the world's life (player.h's pt_player_host). Calling it again does
        nothing."""
        lib.pt_player_host(self._ptr)

    @property
    def hosted(self):
        """True once :meth:`host_player` was called."""
        return bool(lib.pt_player_hosted(self._ptr))

    def move_player(self, x, y, vx=0.0, vy=0.0):
        """The hosted player at (x, y) in tiles, moving at (vx, vy) tiles a second, from the next
        step on (a footstep when that brings it into another cell). Raises patrol.Error when the
        world is not hosted (PT_ERR_USAGE), for NaN or infinite numbers (PT_ERR_RANGE), a
        position outside the map or on a tile that cannot be walked."""
        err = ffi.new("pt_error *")
        _check(lib.pt_player_move(self._ptr, _real(x, "x"), _real(y, "y"), _real(vx, "vx"), _real(vy, "vy"), err),
               err)

    def teleport_player(self, x, y):
        """The hosted player put at (x, y) in tiles by a jump: standing, no footstep. The errors
        of :meth:`move_player`."""
        err = ffi.new("pt_error *")
        _check(lib.pt_player_teleport(self._ptr, _real(x, "x"), _real(y, "y"), err), err)

    # --- entities ---------------------------------------------------------------------------
    def __bool__(self):
        return True   # a world is a world, closed or not (len() would raise once closed)

    def __len__(self):
        """The ids ever given (removed ones included): ids run from 0 to len - 1."""
        return lib.pt_world_count(self._ptr)

    def entity(self, id):
        """The view of entity id; raises KeyError for an id never given or removed."""
        i = _cint(id, "id")
        e = lib.pt_world_entity(self._ptr, i) if i >= 0 else ffi.NULL
        if e == ffi.NULL:
            raise KeyError(id)
        return Entity(self, i)

    def find(self, name):
        """The view of the live entity called name (the player is "player"), or None."""
        n = _text(name, "name").decode("utf-8")
        for e in self.entities:
            if e.name == n:
                return e
        return None

    @property
    def player(self):
        return Entity(self, 0)

    @property
    def entities(self):
        """Views of the entities alive now, in id order (the player first)."""
        return [Entity(self, int(i)) for i in self.live_ids()]

    def drawn_pos(self, id, alpha=0.0):
        """Where entity id is drawn, alpha in [0, 1] of the way to the next tick (world.h's
        pt_world_drawn_pos): (x, y) in tiles. Raises KeyError for an unknown or removed id."""
        self.entity(id)
        p = lib.pt_world_drawn_pos(self._ptr, int(id), _real(alpha, "alpha"))
        return (p.x, p.y)

    # --- bulk reads -------------------------------------------------------------------------
    def _bulk(self, ids=False, cells=False, pos=False, out=None):
        w = self._ptr
        live = lib.pt_world_positions(w, ffi.NULL, ffi.NULL, ffi.NULL, 0)
        cids = ffi.new("uint32_t[]", live) if ids else ffi.NULL
        ccells = ffi.new("int[]", 2 * live) if cells else ffi.NULL
        cpos = ffi.NULL
        if pos and out is not None:
            try:
                cpos = ffi.from_buffer("double[]", out, require_writable=True)
            except (TypeError, BufferError) as e:
                raise TypeError("out must be a writable, contiguous buffer: %s" % e) from None
            if len(cpos) < 2 * live:
                raise ValueError("out holds %d float64; the %d live entities need %d" % (len(cpos), live, 2 * live))
        elif pos:
            cpos = ffi.new("double[]", 2 * live)
        n = lib.pt_world_positions(w, cids, ccells, cpos, live)
        return n, cids, ccells, cpos

    def positions(self, out=None):
        """Every live entity's continuous position (px, py) in tiles, in one call: a
        memoryview of float64, shape (n, 2), row k for ``live_ids()[k]`` (id order, the player
        first). It is a snapshot that owns its memory: later steps do not change it and it
        stays readable after the world is closed. ``out``: a writable C-contiguous buffer of
        float64 (a numpy array, ``array.array("d")``, a bytearray) to fill instead of new
        memory; the memoryview returned is over its first n rows (ValueError when it holds
        fewer than 2 * n numbers)."""
        n, _, _, cpos = self._bulk(pos=True, out=out)
        if out is not None:
            return memoryview(out).cast("B")[:16 * n].cast("d", (n, 2))
        return _rows(cpos, 16 * n, "d", n, 2)

    def positions_array(self, out=None):
        """:meth:`positions` as a numpy array of float64, shape (n, 2), over the memory of the
        memoryview (no copy: ``numpy.shares_memory`` holds, a write to one shows in the other).
        Raises ImportError when numpy is not installed."""
        import numpy
        return numpy.asarray(self.positions(out))

    def cells(self):
        """Every live entity's cell, in one call: a memoryview of C int (int32), shape (n, 2),
        rows as :meth:`positions`'; a snapshot that owns its memory."""
        n, _, ccells, _ = self._bulk(cells=True)
        return _rows(ccells, 8 * n, "i", n, 2)

    def live_ids(self):
        """The ids of the live entities in order: a memoryview of uint32, shape (n,); a
        snapshot that owns its memory."""
        n, cids, _, _ = self._bulk(ids=True)
        return _rows(cids, 4 * n, "I", n, 0)

    # --- events and noises ------------------------------------------------------------------
    def events(self):
        """An iterator over the events of the last step, in the order they happened (and, after
        the step, those the game's door and light calls added)."""
        n = ffi.new("int *")
        ev = lib.pt_world_events(self._ptr, n)
        out = [Event(ev[i].tick, _str(lib.pt_event_kind_name(ev[i].kind)), ev[i].a, ev[i].b, ev[i].x, ev[i].y)
               for i in range(n[0])]
        return iter(out)

    def _noises(self, fn):
        n = ffi.new("int *")
        p = fn(self._ptr, n)
        return [Noise(p[i].tick, p[i].x, p[i].y, p[i].loudness, _str(lib.pt_noise_kind_name(p[i].kind)))
                for i in range(n[0])]

    def noises(self):
        """The noises made during the last step, in the order they were made (a list of
        :class:`Noise`; shouts are not among them)."""
        return self._noises(lib.pt_world_noises)

    def shouts(self):
        """The guards' calls of the last step (a list of :class:`Noise` of kind "shout")."""
        return self._noises(lib.pt_world_shouts)

    # --- changing the world -----------------------------------------------------------------
    def noise(self, x, y, loudness):
        """A noise the game makes at cell (x, y), loudness in tiles (capped at 256), heard in
        the next step. ValueError for a loudness not above 0 (or NaN); patrol.Error
        (PT_ERR_OUT_OF_MAP) for a cell outside the map. At most 256 wait for a step: more are
        dropped."""
        x, y = _cint(x, "x"), _cint(y, "y")
        loud = _real(loudness, "loudness")
        if not loud > 0:
            raise ValueError("a noise's loudness must be above 0, not %r" % loudness)
        w = self._ptr
        if not self._in_map(x, y):
            raise _code_error(_CODE["PT_ERR_OUT_OF_MAP"], "noise at %d,%d" % (x, y))
        lib.pt_world_noise(w, x, y, loud)

    def tile(self, x, y):
        """The :class:`patrol.Tile` of cell (x, y) now: the world's own map, which set_tile and
        doors change (Map.tile stays as the file starts). TypeError for a non-integer,
        IndexError for a cell outside the map."""
        return _tile_at(lib.pt_world_map(self._ptr), x, y)

    def set_tile(self, x, y, tile):
        """Changes cell (x, y) to the legend entry whose character is tile (a str of one
        character) between steps; sight, hearing and paths follow at once (world.h's
        pt_world_set_tile). patrol.Error: PT_ERR_OUT_OF_MAP, PT_ERR_UNKNOWN_TILE."""
        if isinstance(tile, str):
            tile = tile.encode("utf-8")
        if not isinstance(tile, bytes):
            raise TypeError("tile must be a str of one character, not %s" % type(tile).__name__)
        if len(tile) != 1:
            raise ValueError("tile must be one (ASCII) character, not %r" % tile)
        err = ffi.new("pt_error *")
        _check(lib.pt_world_set_tile(self._ptr, _cint(x, "x"), _cint(y, "y"), tile, err), err)

    def set_door(self, x, y, state):
        """Sets the door at (x, y) to "open", "closed" or "locked" (the only way to unlock one);
        a "door" event is added to the last step's events when it changes. ValueError for
        another state; patrol.Error: PT_ERR_OUT_OF_MAP, PT_ERR_BAD_VALUE (no door there)."""
        s = _DOOR_STATES.get(state)
        if s is None:
            raise ValueError("a door is %s, not %r" % (", ".join(_DOOR_STATES), state))
        err = ffi.new("pt_error *")
        _check(lib.pt_world_set_door(self._ptr, _cint(x, "x"), _cint(y, "y"), s, err), err)

    def door(self, x, y):
        """The state of the door at (x, y), "open", "closed" or "locked"; None when no door is
        there (or the cell is outside the map)."""
        s = lib.pt_world_door(self._ptr, _cint(x, "x"), _cint(y, "y"))
        return _DOOR_NAMES.get(s)

    def doors(self):
        """Every door, by row then column (a list of :class:`Door`)."""
        w = self._ptr
        n = lib.pt_world_doors(w, ffi.NULL, 0)
        buf = ffi.new("pt_door[]", max(n, 1))
        n = lib.pt_world_doors(w, buf, n)
        return [Door(d.x, d.y, _DOOR_NAMES.get(d.state, "unknown"), bool(d.closes)) for d in buf[0:n]]

    def _light(self, w, i):
        out = ffi.new("pt_light *")
        if lib.pt_world_light_get(w, i, out) < 0:
            raise _code_error(_CODE["PT_ERR_BAD_VALUE"], "no light %d" % i)
        return Light(i, _str(out.name), out.x, out.y, out.radius, out.level, bool(out.on))

    def lights(self):
        """Every light, in the map's order, as it is now (a list of :class:`Light`)."""
        w = self._ptr
        return [self._light(w, i) for i in range(lib.pt_world_light_count(w))]

    def light(self, which):
        """One light (a :class:`Light`), by name or index; patrol.Error when there is none."""
        w = self._ptr
        return self._light(w, self._light_index(w, which))

    def _light_index(self, w, which):
        if isinstance(which, (str, bytes)):
            i = lib.pt_world_light_find(w, _text(which, "light"))
            if i < 0:
                raise _code_error(_CODE["PT_ERR_BAD_VALUE"], "no light named %r" % which)
            return i
        i = _cint(which, "light")
        if not 0 <= i < lib.pt_world_light_count(w):
            raise _code_error(_CODE["PT_ERR_BAD_VALUE"], "no light %d" % _index(which, "light"))
        return i

    def set_light(self, which, on):
        """Switches a light (by name or index) on (on true) or off; a "light" event is added
        to the last step's events when it changes. patrol.Error (PT_ERR_BAD_VALUE) when there
        is no such light."""
        w = self._ptr
        i = self._light_index(w, which)
        err = ffi.new("pt_error *")
        _check(lib.pt_world_set_light(w, i, 1 if on else 0, err), err)

    def douse(self):
        """The player puts out a lit light within reach (its cell or the 8 around it): returns
        that light (a :class:`Light`, now off), or None when none is within reach."""
        w = self._ptr
        i = lib.pt_world_douse(w)
        return None if i < 0 else self._light(w, i)

    def spawn(self, line, name=None):
        """Adds the entity a map line declares ("guard NAME key=value ...", "prey ...",
        "flock ..."): returns the views of the new entities (a flock's members, in id order).
        Errors are patrol.Error located in the line (line 1, the column; file ``name``, default
        "spawn"); the world is then unchanged. A "spawned" event comes with the next step."""
        text = _text(line, "line")
        cname = ffi.NULL if name is None else _text(name, "name")
        count = ffi.new("int *")
        err = ffi.new("pt_error *")
        first = _check(lib.pt_world_spawn_line(self._ptr, text, cname, count, err), err)
        return [Entity(self, first + k) for k in range(count[0])]

    def _guard_id(self, guard):
        if isinstance(guard, Entity):
            if guard._world is not self:
                raise ValueError("entity %d is a view of another world" % guard.id)
            return guard.id
        return _cint(guard, "guard")

    def remove(self, entity):
        """Takes an entity (a view or an id) away; its views raise from now on. patrol.Error
        (PT_ERR_RANGE) for the player, an unknown or an already removed id."""
        i = self._guard_id(entity)
        rc = lib.pt_world_remove(self._ptr, i)
        if rc < 0:
            raise _code_error(rc, "cannot remove entity %d (the player, or no live entity)" % i)

    _ORDER_KINDS = ("goto", "investigate", "hold", "resume", "pattern")

    def order(self, guard, kind, at=None, pattern=None):
        """Gives a guard (a view or an id) an order (docs/ai.md, "Orders"):

        * ``order(g, "goto", (x, y))``: walk there, then back to its round;
        * ``order(g, "investigate", (x, y))``: walk there and look around, then back;
        * ``order(g, "hold")``: stand, still sensing, until resumed;
        * ``order(g, "resume")``: drop the order, back to its round;
        * ``order(g, "pattern", pattern="NAME")``: its round is now the library's pattern NAME,
          started where it stands.

        A guard holds one order at a time. ValueError for an unknown kind or a missing or
        extra argument; patrol.Error: PT_ERR_RANGE (not a live guard), PT_ERR_OUT_OF_MAP,
        PT_ERR_NOT_WALKABLE (the cell), PT_ERR_UNKNOWN_PATTERN (with a suggestion).
        """
        i = self._guard_id(guard)
        if kind not in self._ORDER_KINDS:
            raise ValueError("an order is one of %s, not %r" % (", ".join(self._ORDER_KINDS), kind))
        if kind in ("goto", "investigate"):
            if at is None:
                raise ValueError("order %r needs at=(x, y)" % kind)
        elif at is not None:
            raise ValueError("order %r takes no cell" % kind)
        if kind == "pattern":
            if pattern is None:
                raise ValueError("order 'pattern' needs pattern=NAME")
            err = ffi.new("pt_error *")
            _check(lib.pt_world_order_pattern(self._ptr, i, _text(pattern, "pattern"), err), err)
            return
        if pattern is not None:
            raise ValueError("order %r takes no pattern" % kind)
        w = self._ptr
        if kind == "goto" or kind == "investigate":
            x, y = _cell(at, "at")
            fn = lib.pt_world_order_goto if kind == "goto" else lib.pt_world_order_investigate
            rc = fn(w, i, x, y)
            what = "order %s to %d,%d" % (kind, x, y)
        else:
            rc = (lib.pt_world_order_hold if kind == "hold" else lib.pt_world_order_resume)(w, i)
            what = "order %s" % kind
        if rc == _CODE["PT_ERR_RANGE"]:
            raise _code_error(rc, "%s: entity %d is not a live guard" % (what, i))
        if rc < 0:
            raise _code_error(rc, what)

    def _set(self, rc, what, i):
        if rc < 0:
            if not self._is_guard(i):
                raise _code_error(rc, "%s: entity %d is not a live guard" % (what, i))
            raise _code_error(rc, "%s: a value for entity %d is out of range" % (what, i))

    def _is_guard(self, i):
        e = lib.pt_world_entity(self._ptr, i) if i >= 0 else ffi.NULL
        return e != ffi.NULL and e.kind == lib.PT_KIND_GUARD

    def set_view(self, guard, view=None, cone=None):
        """A guard's sight from the next step: view in tiles (0, 256], cone (the full angle)
        in degrees (0, 360]; None keeps the current one. patrol.Error (PT_ERR_RANGE) for a value
        out of range or an id that is no live guard (nothing changed)."""
        i = self._guard_id(guard)
        v = -1.0 if view is None else _real(view, "view")
        c = -1.0 if cone is None else _real(cone, "cone")
        # C reads a value below 0 as "keep": from Python that is a value out of range.
        if view is not None and v < 0 or cone is not None and c < 0:
            raise _code_error(_CODE["PT_ERR_RANGE"], "set_view(view=%r, cone=%r)" % (view, cone))
        self._set(lib.pt_world_set_view(self._ptr, i, v, c), "set_view", i)

    def set_hearing(self, guard, hearing):
        """A guard's hearing threshold from the next step, in (0, 256]; the errors of
        :meth:`set_view`."""
        i = self._guard_id(guard)
        h = _real(hearing, "hearing")
        if h < 0:
            raise _code_error(_CODE["PT_ERR_RANGE"], "set_hearing(%r)" % hearing)
        self._set(lib.pt_world_set_hearing(self._ptr, i, h), "set_hearing", i)

    def set_speed(self, guard, speed):
        """A guard's speed from the next step, tiles a second in (0, 50]; the errors of
        :meth:`set_view`."""
        i = self._guard_id(guard)
        v = _real(speed, "speed")
        if v < 0:
            raise _code_error(_CODE["PT_ERR_RANGE"], "set_speed(%r)" % speed)
        self._set(lib.pt_world_set_speed(self._ptr, i, v), "set_speed", i)

    # --- saving and loading -----------------------------------------------------------------
    def save(self, source=None):
        """The world's whole state as bytes (save.h's pt_world_save; the same world gives the
        same bytes). source: any text to keep in the save (at most 65536 bytes), which
        :func:`save_source` gives back."""
        src = ffi.NULL if source is None else _text(source, "source")
        data = ffi.new("void **")
        size = ffi.new("size_t *")
        err = ffi.new("pt_error *")
        _check(lib.pt_world_save(self._ptr, src, data, size, err), err)
        try:
            return ffi.unpack(ffi.cast("char *", data[0]), size[0])
        finally:
            lib.pt_world_save_free(data[0])

    def save_file(self, path, source=None):
        """:meth:`save` to a file, written whole; patrol.Error (PT_ERR_IO, file = path)."""
        src = ffi.NULL if source is None else _text(source, "source")
        err = ffi.new("pt_error *")
        _check(lib.pt_world_save_file(self._ptr, _path(path), src, err), err)

    @classmethod
    def _loaded(cls, load, map, threads, player_pattern):
        if not isinstance(map, Map):
            raise TypeError("load needs the patrol.Map the world was made from, not %s" % type(map).__name__)
        desc = ffi.new("pt_world_desc *")
        desc.threads = _ranged(threads, "threads", 0, 64)
        if player_pattern is not None:
            desc.player_pattern = player_pattern._pattern
        err = ffi.new("pt_error *")
        w = load(map, desc, err)
        if w == ffi.NULL:
            raise Error._from_c(err)
        self = cls.__new__(cls)
        self._adopt(w, map, player_pattern)
        return self

    @classmethod
    def load(cls, data, map, threads=1, player_pattern=None):
        """A new world from bytes :meth:`save` gave, and the map the saved world was made from
        (as loaded). It goes on tick for tick as the saved one would have. threads: for the
        flocks; player_pattern: as for World() (else the library's pattern of the saved name).
        patrol.Error for a truncated save (PT_ERR_UNTERMINATED), not a save or of another
        version (PT_ERR_BAD_ENCODING), a corrupt one (PT_ERR_BAD_VALUE), one of another map or
        pattern library (PT_ERR_MISSING); its message gives the byte offset where it has one."""
        if isinstance(data, str):
            raise TypeError("a save is bytes, not str")
        try:
            buf = ffi.from_buffer(data)
        except TypeError:
            raise TypeError("a save is bytes (or a buffer), not %s" % type(data).__name__) from None
        return cls._loaded(lambda m, d, e: lib.pt_world_load(buf, len(buf), m._map, m._lib, d, e),
                           map, threads, player_pattern)

    @classmethod
    def load_file(cls, path, map, threads=1, player_pattern=None):
        """:meth:`load` from a file :meth:`save_file` wrote (errors name the file)."""
        p = _path(path)
        return cls._loaded(lambda m, d, e: lib.pt_world_load_file(p, m._map, m._lib, d, e),
                           map, threads, player_pattern)

    def __repr__(self):
        if self._w is None:
            return "<patrol.World closed>"
        return "<patrol.World %r tick %d>" % (self._mapref.path, self.tick)


def save_source(data):
    """The source text a save was made with (:meth:`World.save`'s ``source``; "" when none),
    the save checked whole first (patrol.Error as :meth:`World.load` raises for a bad one)."""
    if isinstance(data, str):
        raise TypeError("a save is bytes, not str")
    buf = ffi.from_buffer(data)
    out = ffi.new("char[]", 65537)
    err = ffi.new("pt_error *")
    _check(lib.pt_save_source(buf, len(buf), out, len(out), err), err)
    return _str(out)
