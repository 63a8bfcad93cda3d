# SPDX-License-Identifier: Zlib
"""What the world hands out: entity views and the records of its reads (events, noises,
memories, orders, the phase, doors, lights), and the argument checks its methods share."""
import collections
import operator

from ._core import Error, _str, ffi, lib


Event = collections.namedtuple("Event", "tick kind a b x y")
Event.__doc__ = """One event of a step (world.h's pt_event): kind is its name ("caught",
"spotted", "door", ...); a, b, x, y mean what docs/ai.md and world.h say for that kind."""

Noise = collections.namedtuple("Noise", "tick x y loudness kind")
Noise.__doc__ = """A noise of the last step (world.h's pt_noise): at cell (x, y), loudness in
tiles, kind "footstep", "game", "source", "tile", "animal" or "shout"."""

Memory = collections.namedtuple("Memory", "kind x y px py tick certainty")
Memory.__doc__ = """What a guard remembers (world.h's pt_memory): kind "seen", "heard" or "told",
the cell (x, y), the place (px, py) in tiles, the tick it was last perceived, and its
certainty now, in (0, 1]."""

Order = collections.namedtuple("Order", "kind x y")
Order.__doc__ = """The order a guard holds: kind "goto", "investigate" or "hold", and the cell
(x, y) it names (the guard's cell when it was told to hold)."""

Phase = collections.namedtuple("Phase", "name seconds_left")
Phase.__doc__ = """The world's alert phase: name "normal", "alert", "evasion" or "caution", and
the seconds left before evasion or caution ends (0.0 in normal and alert)."""

Door = collections.namedtuple("Door", "x y state closes")
Door.__doc__ = """A door (door.h's pt_door): its cell, its state "open", "closed" or "locked",
and closes (True: guards close it behind them)."""

Light = collections.namedtuple("Light", "index name x y radius level on")
Light.__doc__ = """A light (light.h's pt_light) as it is when read: its index (the map's
declaration order), name, cell, radius in tiles, level at its own cell and on (a bool)."""


_GAITS = {"walk": lib.PT_GAIT_WALK, "sneak": lib.PT_GAIT_SNEAK, "run": lib.PT_GAIT_RUN}
_DOOR_STATES = {"open": lib.PT_DOOR_OPEN, "closed": lib.PT_DOOR_CLOSED, "locked": lib.PT_DOOR_LOCKED}
_DOOR_NAMES = {v: k for k, v in _DOOR_STATES.items()}
_FLOCK_NAMES = {lib.PT_FLOCK_HOUND: "hound", lib.PT_FLOCK_CROW: "crow"}
_INT_MIN, _INT_MAX = -2**31, 2**31 - 1
# The pt_code values by name (error.h), read from the library rather than declared twice.
_CODE = {_str(lib.pt_code_name(c)): c for c in range(-64, 1) if _str(lib.pt_code_name(c)) != "unknown"}


def _index(v, what):
    """An integer argument (int or anything with __index__, not bool)."""
    if isinstance(v, bool):
        raise TypeError("%s must be an integer, not bool" % what)
    try:
        return operator.index(v)
    except TypeError:
        raise TypeError("%s must be an integer, not %s" % (what, type(v).__name__)) from None


def _cint(v, what):
    """An integer argument for a C int: one outside C's range becomes -1, which every call
    taking it refuses as C refuses any other bad id or cell (no OverflowError from cffi)."""
    v = _index(v, what)
    return v if _INT_MIN <= v <= _INT_MAX else -1


def _ranged(v, what, lo, hi):
    """An integer argument in lo..hi (ValueError outside)."""
    v = _index(v, what)
    if not lo <= v <= hi:
        raise ValueError("%s must be in %d..%d, not %d" % (what, lo, hi, v))
    return v


def _real(v, what):
    if isinstance(v, bool) or not isinstance(v, (int, float)) and not hasattr(v, "__float__"):
        raise TypeError("%s must be a number, not %s" % (what, type(v).__name__))
    return float(v)


def _text(v, what):
    if isinstance(v, bytes):
        return v
    if not isinstance(v, str):
        raise TypeError("%s must be a str, not %s" % (what, type(v).__name__))
    return v.encode("utf-8")


def _code_error(rc, message):
    """patrol.Error for a call that returns a pt_code and no pt_error."""
    return Error("%s: %s" % (message, _str(lib.pt_code_text(rc))), code=_str(lib.pt_code_name(rc)))


def _cell(at, what):
    try:
        x, y = at
    except (TypeError, ValueError):
        raise TypeError("%s must be a cell (x, y), not %r" % (what, at)) from None
    return _cint(x, what + "'s x"), _cint(y, what + "'s y")


def _rows(cdata, nbytes, fmt, n, width):
    """A memoryview of format fmt, shape (n, width) (or (n,) for width 0), over the first
    nbytes of cdata, which the memoryview keeps alive."""
    mv = memoryview(ffi.buffer(cdata, nbytes))
    return mv.cast("B").cast(fmt, (n, width) if width else (n,))


class Entity:
    """A read-only view of one entity: every read asks the world, so it is always current.

    A view keeps its world alive. Reading a view of a removed entity, or of a closed world,
    raises :class:`patrol.Error`. Nothing can be assigned to a view (AttributeError): the
    world's methods change entities.
    """

    __slots__ = ("_world", "_id")

    def __init__(self, world, id):
        object.__setattr__(self, "_world", world)
        object.__setattr__(self, "_id", id)

    def __setattr__(self, name, value):
        raise AttributeError("patrol.Entity is a read-only view: %r cannot be set (use the World's "
                             "controls)" % name)

    def __delattr__(self, name):
        raise AttributeError("patrol.Entity is a read-only view: %r cannot be deleted" % name)

    def _e(self):
        e = lib.pt_world_entity(self._world._ptr, self._id)
        if e == ffi.NULL:
            raise Error("entity %d was removed" % self._id)
        return e

    @property
    def id(self):
        return self._id

    @property
    def world(self):
        return self._world

    @property
    def alive(self):
        """False once the entity is removed or its world closed."""
        return self._world._w is not None and lib.pt_world_entity(self._world._w, self._id) != ffi.NULL

    @property
    def name(self):
        return _str(self._e().name)

    @property
    def kind(self):
        """"player", "guard", "prey" or "boid"."""
        return _str(lib.pt_kind_name(self._e().kind))

    @property
    def flock(self):
        """A flock member's ("boid") flock kind, "hound" or "crow"; None for the others."""
        e = self._e()
        d = getattr(e, "def")     # a Python keyword
        if e.kind != lib.PT_KIND_BOID or d == ffi.NULL:
            return None
        return _FLOCK_NAMES.get(d.flock_kind, "hound")

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
    def hearing(self):
        """Guards: the threshold a noise's level at its cell must pass to be heard."""
        return self._e().hearing

    @property
    def awareness(self):
        """0 .. 1.5 * chase_at: fills while it sees the player, falls otherwise."""
        return self._e().awareness

    @property
    def suspicious_at(self):
        """The awareness at which it turns suspicious."""
        return self._e().suspicious_at

    @property
    def chase_at(self):
        """The awareness at which it gives chase."""
        return self._e().chase_at

    @property
    def sees_player(self):
        return bool(self._e().sees_player)

    @property
    def memories(self):
        """A guard's live memories after the last step, at most one per kind in the order
        seen, heard, told (a list of :class:`Memory`; [] for any other entity)."""
        self._e()
        w = self._world._ptr
        out = ffi.new("pt_memory[]", lib.PT_MEMORY_COUNT)
        n = min(lib.pt_world_guard_memory(w, self._id, out, lib.PT_MEMORY_COUNT), lib.PT_MEMORY_COUNT)
        return [Memory(_str(lib.pt_memory_kind_name(m.kind)), m.x, m.y, m.px, m.py, m.tick, m.certainty)
                for m in out[0:n]]

    @property
    def order(self):
        """The game's order it holds (an :class:`Order`), or None."""
        self._e()
        xy = ffi.new("int[2]")
        k = lib.pt_world_order(self._world._ptr, self._id, xy, xy + 1)
        if k == lib.PT_ORDER_NONE:
            return None
        return Order(_str(lib.pt_order_kind_name(k)), xy[0], xy[1])

    def __eq__(self, other):
        return isinstance(other, Entity) and other._world is self._world and other._id == self._id

    def __hash__(self):
        return hash((id(self._world), self._id))

    def __repr__(self):
        if not self.alive:
            return "<patrol.Entity %d (gone)>" % self._id
        return "<patrol.Entity %d %s %r %s at %d,%d>" % (self._id, self.kind, self.name, self.state, self.x, self.y)
