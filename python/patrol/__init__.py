# SPDX-License-Identifier: Zlib
"""patrol from Python: guards that patrol, see, hear, chase and search on a tile grid.

    import patrol
    level = patrol.load_map("maps/demo.map")      # raises patrol.Error on a bad file
    world = patrol.World(level, seed=7)
    world.step(600)
    for e in world.entities:
        print(e.id, e.kind, e.name, e.state, e.cell)
    for ev in world.events():                    # the last step's
        print(ev.kind, ev.a, ev.b)

    print(patrol.check("maps/demo.map"))         # its warnings; patrol.Error on an error
    route = patrol.solve(level)                  # a route no guard sees, or a false Route
    print(patrol.run_test("maps/demo.test").ok)

docs/python.md describes the whole API.
"""
from ._core import Error
from .levels import CheckWarning, ExpectResult, Route, TestRun, check, file_kind, run_test, solve
from .map import Map, Obstacle, Tile, load_map
from .world import Door, Entity, Event, Light, Memory, Noise, Order, Phase, World, save_source

__all__ = ["Error", "Map", "load_map", "Tile", "Obstacle", "World", "Entity", "Event", "Noise", "Memory", "Order", "Phase",
           "Door", "Light", "save_source",
           "check", "file_kind", "solve", "run_test", "CheckWarning", "Route", "TestRun", "ExpectResult"]
