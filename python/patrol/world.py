# SPDX-License-Identifier: Zlib
"""The world: stepped from Python, read through views, changed through its controls."""
import collections

from ._core import Error, _check, _str, ffi, lib
from .map import Map


Event = collections.namedtuple("Event", "tick kind a b x y")
Event.__doc__ = """One event of a step (world.h's pt_event): kind is its name ("caught",
"spotted", "door", ...); a, b, x, y mean what docs/ai.md and world.h say for that kind."""


_GAITS = {"walk": lib.PT_GAIT_WALK, "sneak": lib.PT_GAIT_SNEAK, "run": lib.PT_GAIT_RUN}


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
        desc.seed = 0 if seed is None else int(seed)
        desc.tick_hz = 0 if tick_hz is None else int(tick_hz)
        desc.player_controlled = 1 if controlled else 0
        desc.end_round_on_catch = 1 if end_round_on_catch else 0
        desc.threads = int(threads)
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

    # --- time -------------------------------------------------------------------------------
    def step(self, n=1):
        """Advances n fixed ticks (1/tick_hz s each)."""
        w = self._ptr
        for _ in range(int(n)):
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

    # --- entities ---------------------------------------------------------------------------
    def __len__(self):
        """The ids ever given (removed ones included): ids run from 0 to len - 1."""
        return lib.pt_world_count(self._ptr)

    def entity(self, id):
        """The view of entity id; raises KeyError for an id never given or removed."""
        e = lib.pt_world_entity(self._ptr, int(id)) if 0 <= int(id) < 2**31 else ffi.NULL
        if e == ffi.NULL:
            raise KeyError(id)
        return Entity(self, int(id))

    @property
    def player(self):
        return Entity(self, 0)

    @property
    def entities(self):
        """Views of the entities alive now, in id order (the player first)."""
        w = self._ptr
        return [Entity(self, i) for i in range(lib.pt_world_count(w)) if lib.pt_world_entity(w, i) != ffi.NULL]

    def drawn_pos(self, id, alpha=0.0):
        """Where entity id is drawn, alpha in [0, 1] of the way to the next tick (world.h's
        pt_world_drawn_pos): (x, y) in tiles. Raises KeyError for an unknown or removed id."""
        self.entity(id)
        p = lib.pt_world_drawn_pos(self._ptr, int(id), float(alpha))
        return (p.x, p.y)

    # --- events -----------------------------------------------------------------------------
    def events(self):
        """An iterator over the events of the last step, in the order they happened."""
        n = ffi.new("int *")
        ev = lib.pt_world_events(self._ptr, n)
        out = [Event(ev[i].tick, _str(lib.pt_event_kind_name(ev[i].kind)), ev[i].a, ev[i].b, ev[i].x, ev[i].y)
               for i in range(n[0])]
        return iter(out)

    def __repr__(self):
        if self._w is None:
            return "<patrol.World closed>"
        return "<patrol.World %r tick %d>" % (self._mapref.path, self.tick)


class Entity:
    """A read-only view of one entity: every read asks the world, so it is always current.

    A view keeps its world alive. Reading a view of a removed entity, or of a closed world,
    raises :class:`patrol.Error`.
    """

    __slots__ = ("_world", "id")

    def __init__(self, world, id):
        self._world = world
        self.id = id

    def _e(self):
        e = lib.pt_world_entity(self._world._ptr, self.id)
        if e == ffi.NULL:
            raise Error("entity %d was removed" % self.id)
        return e

    @property
    def alive(self):
        """False once the entity is removed or its world closed."""
        return self._world._w is not None and lib.pt_world_entity(self._world._w, self.id) != ffi.NULL

    @property
    def name(self):
        return _str(self._e().name)

    @property
    def kind(self):
        """"player", "guard", "prey" or "boid"."""
        return _str(lib.pt_kind_name(self._e().kind))

    @property
    def state(self):
        """"patrol", "suspicious", "chase", "search", "return", "caught", "flee", "flock",
        "idle" or "investigate"."""
        return _str(lib.pt_state_name(self._e().state))

    @property
    def cell(self):
        """The tile it is on, (x, y)."""
        e = self._e()
        return (e.x, e.y)

    @property
    def x(self):
        return self._e().x

    @property
    def y(self):
        return self._e().y

    @property
    def pos(self):
        """Its continuous position in tiles, (px, py) (a tile's centre is x + 0.5)."""
        e = self._e()
        return (e.px, e.py)

    @property
    def heading(self):
        """Radians, 0 = east, clockwise on screen."""
        return self._e().heading

    @property
    def motion(self):
        """"tile" (moves cell to cell) or "continuous" (a steered vehicle)."""
        return _str(lib.pt_motion_name(self._e().motion))

    @property
    def speed(self):
        """Tiles per second."""
        return self._e().speed

    @property
    def view(self):
        """(distance in tiles, full cone angle in radians) of its sight."""
        e = self._e()
        return (e.view_dist, e.view_angle)

    @property
    def awareness(self):
        return self._e().awareness

    @property
    def sees_player(self):
        return bool(self._e().sees_player)

    def __eq__(self, other):
        return isinstance(other, Entity) and other._world is self._world and other.id == self.id

    def __hash__(self):
        return hash((id(self._world), self.id))

    def __repr__(self):
        if not self.alive:
            return "<patrol.Entity %d (gone)>" % self.id
        return "<patrol.Entity %d %s %r %s at %d,%d>" % (self.id, self.kind, self.name, self.state, self.x, self.y)
