# SPDX-License-Identifier: Zlib
"""examples/python/bench.py (docs/performance.md, "Python") runs and reports every figure, on a
tiny run so that it cannot rot unnoticed."""
import json
import math
import os
import subprocess
import sys

from conftest import ROOT

BENCH = ROOT / "examples" / "python" / "bench.py"


def run(*args):
    return subprocess.run([sys.executable, str(BENCH), *map(str, args)], capture_output=True, text=True,
                          timeout=120, env=dict(os.environ))


def test_bench_reports_every_figure(patrol_bin):
    p = run("--ticks", 30, "--runs", 2, "--patrol", patrol_bin, "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["map"] == "maps/demo.map" and out["ticks"] == 30 and out["runs"] == 2
    for key in ("step_us_per_tick", "step_n_us_per_tick", "call_us"):
        assert math.isfinite(out[key]) and out[key] > 0, key
    # 30 ticks of the sim may drown in its process's noise: then the C figures are null.
    c = out["c_us_per_tick"]
    assert c is None or (math.isfinite(c) and c > 0)
    for key in ("step", "step_n"):
        if c is None:
            assert out[key + "_ratio"] is None and out[key + "_overhead_us"] is None
        else:
            assert abs(out[key + "_ratio"] - out[key + "_us_per_tick"] / c) < 0.01
            assert abs(out[key + "_overhead_us"] - (out[key + "_us_per_tick"] - c)) < 0.01
    p = run("--ticks", 30, "--runs", 1, "--patrol", patrol_bin)
    assert p.returncode == 0 and "world.step() per tick" in p.stdout and "patrol sim (C)" in p.stdout, p.stderr


def test_bench_refuses_bad_arguments(tmp_path):
    p = run("--ticks", 0)
    assert p.returncode == 2 and "--ticks" in p.stderr
    p = run("--patrol", tmp_path / "no-patrol")
    assert p.returncode == 2 and "no patrol command" in p.stderr
