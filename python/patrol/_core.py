# SPDX-License-Identifier: Zlib
"""What every module of the package shares: the cffi library and patrol.Error."""
from ._patrol import ffi, lib


class Error(Exception):
    """A failure reported by patrol, with its place when it has one.

    str(e) is the line the patrol command prints: ``file:line:col: error: message``
    (the parts that are unknown are left out). ``code`` is the name of the pt_code
    (``"PT_ERR_SYNTAX"``), ``source`` the offending line of the file ("" when none).
    """

    __module__ = "patrol"      # tracebacks say patrol.Error, the name users catch

    def __init__(self, message, file="", line=0, col=0, code="PT_ERR_USAGE", source=""):
        self.message = message
        self.file = file
        self.line = line
        self.col = col
        self.code = code
        self.source = source
        super().__init__(self._text())

    def _text(self):
        where = self.file
        if self.file and self.line > 0:
            where += ":%d" % self.line
            if self.col > 0:
                where += ":%d" % self.col
        return "%s: error: %s" % (where, self.message) if where else "error: " + self.message

    @classmethod
    def _from_c(cls, err, code=None):
        c = err.code if code is None or err.code < 0 else code
        return cls(_str(err.message) or _str(lib.pt_code_name(c)), _str(err.file), err.line, err.col,
                   _str(lib.pt_code_name(c)), _str(err.source))


def _str(p):
    """A C string (char * or char[N]) as a Python str; "" for NULL."""
    if p == ffi.NULL:
        return ""
    return ffi.string(p).decode("utf-8", "replace")


def _check(rc, err):
    """Raises the Error err describes when rc is a negative pt_code; returns rc otherwise."""
    if rc < 0:
        raise Error._from_c(err, rc)
    return rc


def _path(path):
    """A path argument (str, bytes or os.PathLike) as bytes for C."""
    import os
    p = os.fspath(path)
    return p if isinstance(p, bytes) else p.encode("utf-8")
