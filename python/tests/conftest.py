# SPDX-License-Identifier: Zlib
"""Shared fixtures: where the source tree and the patrol command are."""
import os
import pathlib

import pytest

ROOT = pathlib.Path(os.environ.get("PATROL_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))


@pytest.fixture
def root():
    return ROOT


@pytest.fixture
def patrol_bin():
    b = os.environ.get("PATROL_BIN")
    if not b:
        pytest.skip("PATROL_BIN is not set (the patrol command is not built)")
    return b


# The sanitizer build (PATROL_SANITIZE=ON): ctest sets PATROL_SANITIZE=1 and preloads ASan's
# runtime (python/CMakeLists.txt). A test that cannot run there is marked
#     @pytest.mark.no_sanitizer("why")
# and is skipped there only, with that reason; everywhere else it runs.
SANITIZE = os.environ.get("PATROL_SANITIZE") == "1"


def pytest_configure(config):
    config.addinivalue_line("markers", "no_sanitizer(reason): skipped in the sanitizer build only, "
                            "where ctest sets PATROL_SANITIZE=1")


def pytest_collection_modifyitems(config, items):
    for item in items:
        m = item.get_closest_marker("no_sanitizer")
        if m is None:
            continue
        reason = m.args[0] if m.args else m.kwargs.get("reason", "")
        if not reason:
            raise pytest.UsageError("%s: no_sanitizer needs a reason" % item.nodeid)
        if SANITIZE:
            item.add_marker(pytest.mark.skip(reason="sanitizer build: " + reason))
