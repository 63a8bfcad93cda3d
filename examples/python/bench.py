#!/usr/bin/env python3
# SPDX-License-Identifier: Zlib
"""What stepping a world from Python costs over the C step (docs/performance.md, "Python").

Steps a map's world (default the demo) for N ticks from Python, world.step() once a tick and
world.step(N) in one call, and runs `patrol sim MAP --ticks N --quiet` for the same N: the
sim's stepping time is its run's wall time less that of `--ticks 0` (the process and the
loading). Each is timed R times, interleaved in a new order each run (what follows a process
finds the caches cold: not always the same side), and the medians are compared: microseconds
a tick, the ratio to the C step and the difference. Alone in the process it also times what
a call of world.step costs besides the C step: world.step(0) and one cffi call. Every side
steps the same world (the map's seed, the player walking its pattern).

    PYTHONPATH=build/python /usr/bin/python3 examples/python/bench.py --patrol build/patrol
"""
import argparse
import json
import os
import pathlib
import random
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]


def time_sim(patrol_bin, map_path, ticks):
    t0 = time.perf_counter()
    subprocess.run([patrol_bin, "sim", str(map_path), "--ticks", str(ticks), "--quiet"], check=True,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


def time_python(level, ticks, bulk):
    import patrol
    with patrol.World(level) as w:
        step = w.step
        t0 = time.perf_counter()
        if bulk:
            step(ticks)
        else:
            for _ in range(ticks):
                step()
        t = time.perf_counter() - t0
        assert w.tick == ticks
    return t


def time_call(level, calls):
    """Seconds a call of world.step costs besides the C step: world.step(0) (the method, its
    checks, an empty loop) plus one cffi call to a C function that does next to nothing."""
    import patrol
    from patrol._core import lib
    with patrol.World(level) as w:
        step, tick, ptr = w.step, lib.pt_world_tick, w._ptr
        t0 = time.perf_counter()
        for _ in range(calls):
            step(0)
        t1 = time.perf_counter()
        for _ in range(calls):
            tick(ptr)
        t2 = time.perf_counter()
    return (t1 - t0) + (t2 - t1)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--map", default=str(ROOT / "maps" / "demo.map"))
    ap.add_argument("--ticks", type=int, default=6000, help="ticks a run (default 6000: 100 s of game)")
    ap.add_argument("--runs", type=int, default=7, help="runs of each, the median kept (default 7)")
    ap.add_argument("--patrol", default=os.environ.get("PATROL_BIN") or str(ROOT / "build" / "patrol"),
                    help="the patrol command (default $PATROL_BIN, else build/patrol)")
    ap.add_argument("--json", action="store_true", help="one JSON object instead of the table")
    args = ap.parse_args(argv)
    if args.ticks < 1 or args.runs < 1:
        ap.error("--ticks and --runs take 1 or more")
    if not os.access(args.patrol, os.X_OK):
        ap.error("no patrol command at %s (build it, or give --patrol)" % args.patrol)

    import patrol
    level = patrol.load_map(args.map)
    sim, load, each, bulk, call = [], [], [], [], []
    jobs = [(sim, lambda: time_sim(args.patrol, args.map, args.ticks)),
            (load, lambda: time_sim(args.patrol, args.map, 0)),
            (each, lambda: time_python(level, args.ticks, bulk=False)),
            (bulk, lambda: time_python(level, args.ticks, bulk=True)),
            (call, lambda: time_call(level, args.ticks))]
    order = random.Random(1)
    for _ in range(args.runs):
        # A new order each run: what runs right after a process (its caches cold) changes
        # from run to run, not always the same side.
        order.shuffle(jobs)
        for times, job in jobs:
            times.append(job())
    us = lambda s: statistics.median(s) / args.ticks * 1e6
    c_us = us(sim) - us(load)
    if c_us <= 0:       # the run is too short to tell the steps from the process's noise
        c_us = None
    rel = lambda v, f: None if c_us is None else round(f(v), 3)
    out = {
        "map": os.path.relpath(args.map, ROOT) if args.map.startswith(str(ROOT)) else args.map,
        "ticks": args.ticks, "runs": args.runs,
        "c_us_per_tick": rel(0, lambda v: c_us),
        "step_us_per_tick": round(us(each), 3),
        "step_n_us_per_tick": round(us(bulk), 3),
        "step_ratio": rel(us(each), lambda v: v / c_us),
        "step_n_ratio": rel(us(bulk), lambda v: v / c_us),
        "step_overhead_us": rel(us(each), lambda v: v - c_us),
        "step_n_overhead_us": rel(us(bulk), lambda v: v - c_us),
        "call_us": round(us(call), 3),
    }
    if args.json:
        print(json.dumps(out))
        return 0
    print("%s, %d ticks, median of %d runs" % (out["map"], args.ticks, args.runs))
    if c_us is None:
        print("  %-24s below the process's noise: give more --ticks" % "patrol sim (C)")
    else:
        print("  %-24s %8.2f us/tick" % ("patrol sim (C)", c_us))
    for name, key in (("world.step() per tick", "step"), ("world.step(N)", "step_n")):
        print("  %-24s %8.2f us/tick" % (name, out[key + "_us_per_tick"]), end="")
        if c_us is None:
            print()
        else:
            print("  %5.2fx  %+6.2f us a tick over C" % (out[key + "_ratio"], out[key + "_overhead_us"]))
    print("  %-24s %8.2f us a call (world.step(0) and a cffi call)" % ("the call itself", out["call_us"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
