# SPDX-License-Identifier: Apache-2.0
"""The package under test loads the library named by SATCHEL_LIBRARY (scripts/test-python sets it
to a freshly installed, self-contained libsatchel), or the one its wheel carries
(scripts/build-wheel --test): never one that happens to be installed on the machine."""
import os

import pytest


def pytest_configure(config):
    if "SATCHEL_LIBRARY" in os.environ:
        return
    from satchel import _ffi

    if not _ffi.library_path.endswith(os.path.join("satchel", "libsatchel.so.0")):
        raise pytest.UsageError(
            "set SATCHEL_LIBRARY to an installed libsatchel.so.0 (scripts/test-python does), "
            "or install the wheel, which carries its own (scripts/build-wheel --test)")
