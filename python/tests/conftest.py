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
