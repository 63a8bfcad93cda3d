#!/usr/bin/env python3
# SPDX-License-Identifier: Zlib
"""A level pipeline: checks, solves and tests every level of a folder, and prints a table.

    PYTHONPATH=build/python python3 examples/python/pipeline.py [FOLDER] [--max-time S] [--gait G]

FOLDER (default: the repository's maps/) holds the levels: every map (.map, Tiled .tmx, by
patrol.file_kind) is a level; every .test file belongs to the level its `map` line names.
For each level, one row:

    level       check        solvable                     tests  time
    demo.map    ok           yes: 821 ticks, margin 60 t  14/14  2.9 s

  check     "ok", "ok, N warnings", or "error" (patrol.check)
  solvable  "yes: N ticks, margin M t" (patrol.solve: the route's length in ticks and its
            margin_ticks), "no (why)", or "-" when the check failed
  tests     expectations passed / run over the level's .test files (patrol.run_test); a
            broken .test file counts as one failed expectation
  time      seconds for the three

Every error follows the table, one located line each (once: a broken map's .test files
repeat its error), then "N levels, M failed". Exit status: 0 every level is valid,
solvable and passes its tests; 1 a level fails; 2 bad arguments.
"""
import argparse
import pathlib
import re
import sys
import time

import patrol

ROOT = pathlib.Path(__file__).resolve().parents[2]
MAP_LINE = re.compile(r"^\s*map\s+(\S+)")


def test_map(test):
    """The map a .test file names, from its first `map` line (None when it names none): read
    here too so a broken test file still goes to its level."""
    try:
        for line in test.read_text(errors="replace").splitlines():
            m = MAP_LINE.match(line)
            if m:
                return (test.parent / m.group(1).strip("\"'")).resolve()
    except OSError:
        pass
    return None


def levels_of(folder):
    files = sorted(p for p in folder.iterdir() if p.is_file())
    levels = [p for p in files if p.suffix != ".test" and patrol.file_kind(p) in ("map", "Tiled map")
              and p.suffix in (".map", ".tmx")]
    tests = {}
    for t in (p for p in files if p.suffix == ".test"):
        tests.setdefault(test_map(t), []).append(t)
    return [(lv, tests.get(lv.resolve(), [])) for lv in levels]


def run_level(level, tests, max_time, gait):
    """One row: (cells, ok, errors)."""
    t0 = time.perf_counter()
    errors, ok = [], True
    try:
        warnings = patrol.check(level)
        check = "ok, %d warning%s" % (len(warnings), "" if len(warnings) == 1 else "s") if warnings else "ok"
    except patrol.Error as e:
        check, ok = "error", False
        errors.append(str(e))
    solvable = "-"
    if ok:
        route = patrol.solve(patrol.load_map(level), gait=gait, max_time=max_time)
        if route:
            solvable = "yes: %d ticks, margin %d t" % (route.ticks, route.margin_ticks)
        else:
            solvable, ok = "no (%s)" % route.why, False
    passed = total = 0
    for t in tests:
        try:
            run = patrol.run_test(t)
        except patrol.Error as e:
            total += 1
            errors.append(str(e))
            continue
        passed += run.passed + run.skipped
        total += len(run)
        errors.extend("%s:%d: %s: %s" % (t, r.line, r.text, r.message) for r in run if r.status == "fail")
    ok = ok and passed == total
    cells = [level.name, check, solvable, "%d/%d" % (passed, total), "%.1f s" % (time.perf_counter() - t0)]
    return cells, ok, errors


def main(argv):
    ap = argparse.ArgumentParser(description="Checks, solves and tests every level of a folder.")
    ap.add_argument("folder", nargs="?", default=str(ROOT / "maps"))
    ap.add_argument("--max-time", type=float, default=60.0, help="the solver's horizon in seconds (60)")
    ap.add_argument("--gait", default="any", choices=["any", "walk", "sneak", "run"])
    args = ap.parse_args(argv)
    folder = pathlib.Path(args.folder)
    if not folder.is_dir():
        ap.error("%s is not a folder" % folder)
    levels = levels_of(folder)
    if not levels:
        ap.error("%s has no levels (.map, .tmx)" % folder)
    rows, errors, failed = [], [], 0
    for level, tests in levels:
        cells, ok, errs = run_level(level, tests, args.max_time, args.gait)
        rows.append(cells)
        errors += errs
        failed += not ok
    head = ["level", "check", "solvable", "tests", "time"]
    widths = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
    for r in [head] + rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    for e in dict.fromkeys(errors):  # once each: a broken map's test repeats the map's error
        print(e)
    print("%d level%s, %d failed" % (len(rows), "" if len(rows) == 1 else "s", failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
