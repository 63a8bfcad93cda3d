# SPDX-License-Identifier: Zlib
"""Writes the C source of patrol's cffi extension (patrol._patrol) from cdef/*.h.

cffi's API mode: the declarations in cdef/ are compiled against the real public headers, so
a field or a prototype that no longer matches them is a compile error, not a crash. CMake
compiles the source this writes (python/CMakeLists.txt) and links it with libpatrol_core.so.

    python3 build_ffi.py OUT.c
"""
import pathlib
import sys

import cffi

HERE = pathlib.Path(__file__).resolve().parent
HEADERS = ["error", "map", "pattern", "world", "save", "spawn", "door", "light", "player", "level", "steer",
           "tmx", "solve", "testing", "script", "search", "hearing", "los"]


def make_ffi():
    ffi = cffi.FFI()
    # Each file of cdef/ declares one area; they are read in name order (base first).
    for part in sorted((HERE / "cdef").glob("*.h")):
        ffi.cdef(part.read_text(), override=False)
    ffi.set_source("patrol._patrol",
                   "".join("#include <patrol/%s.h>\n" % h for h in HEADERS))
    return ffi


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: build_ffi.py OUT.c")
    make_ffi().emit_c_code(sys.argv[1])
