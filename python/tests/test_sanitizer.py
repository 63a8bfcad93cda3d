# SPDX-License-Identifier: Zlib
"""The sanitizer build runs the package on an instrumented libpatrol_core.so.

ctest's `python` test of a PATROL_SANITIZE=ON build sets PATROL_SANITIZE=1 and preloads ASan's
runtime into /usr/bin/python3 (python/CMakeLists.txt). These tests check that this is so: the
runtime is loaded, and a bad access inside the C library is caught and reported there. In any
other build they are skipped.
"""
import ctypes
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(os.environ.get("PATROL_SANITIZE") != "1",
                                reason="only in the sanitizer build (ctest sets PATROL_SANITIZE=1)")


def test_asan_runtime_is_active():
    assert hasattr(ctypes.CDLL(None), "__asan_init"), "ASan's runtime is not loaded"
    maps = open("/proc/self/maps").read()
    assert "libasan" in maps
    core = [l.split()[-1] for l in maps.splitlines() if "libpatrol_core" in l]
    assert core, "libpatrol_core.so is not loaded"
    # The extension and the library were built with -fsanitize=address: both need libasan.
    import patrol._patrol
    for so in (core[0], patrol._patrol.__file__):
        out = subprocess.run(["readelf", "-d", so], capture_output=True, text=True).stdout
        assert "libasan" in out, so + " is not built with ASan"


# Each program hands the library memory that Python allocated and gets it wrong: a cffi buffer
# too short (pt_map_fini reads a whole pt_map from 8 bytes), a cffi buffer freed while C still
# points into it, and a bytearray too short. cffi allocates with calloc, which ASan watches; a
# bytearray's bytes come from Python's allocator, which ASan sees only because ctest also sets
# PYTHONMALLOC=malloc (pymalloc would hide them in its own arenas).
BAD = {
    "cffi-overflow": ("buf = ffi.new('char[8]')\n"
                      "lib.pt_map_fini(ffi.cast('pt_map *', buf))\n", "heap-buffer-overflow"),
    "cffi-use-after-free": ("owner = ffi.new('pt_map *')\n"
                            "m = ffi.cast('pt_map *', owner)\n"
                            "del owner\n"
                            "lib.pt_map_fini(m)\n", "heap-use-after-free"),
    "bytearray-overflow": ("buf = bytearray(8)\n"
                           "lib.pt_map_fini(ffi.cast('pt_map *', ffi.from_buffer(buf)))\n",
                           "heap-buffer-overflow"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_access_in_the_library_is_caught(case):
    program, report = BAD[case]
    code = "from patrol._core import ffi, lib\n" + program + "print('not caught')\n"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode != 0, r.stdout + r.stderr
    assert "not caught" not in r.stdout
    assert "AddressSanitizer: " + report in r.stderr, r.stderr[-2000:]
    assert "pt_map_fini" in r.stderr, r.stderr[-2000:]
