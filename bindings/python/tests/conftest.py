# SPDX-License-Identifier: Apache-2.0
"""The package under test loads the library named by SATCHEL_LIBRARY (scripts/test-python sets it
to a freshly installed, self-contained libsatchel)."""
import os

import pytest


def pytest_configure(config):
    if "SATCHEL_LIBRARY" not in os.environ:
        raise pytest.UsageError("set SATCHEL_LIBRARY to an installed libsatchel.so.0 (scripts/test-python does)")
