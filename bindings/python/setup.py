# SPDX-License-Identifier: Apache-2.0
"""Builds the native module satchel._native against CPython's limited API (one abi3 build for
CPython 3.9 and later), from src/satchel/_native.c and include/satchel.h (the repository's, or
the directory SATCHEL_INCLUDE names). The module links nothing: libsatchel is the one the
package loads. Without a C compiler or the header, the package installs without it and works
through ctypes alone (pyproject.toml has the rest of the metadata)."""
import os

from setuptools import Extension, setup

here = os.path.dirname(os.path.abspath(__file__))
include = [
    directory
    for directory in (os.environ.get("SATCHEL_INCLUDE"), os.path.join(here, "..", "..", "include"))
    if directory and os.path.exists(os.path.join(directory, "satchel.h"))
]

setup(
    ext_modules=[
        Extension(
            "satchel._native", ["src/satchel/_native.c"], include_dirs=include, py_limited_api=True, optional=True,
            extra_compile_args=["-O2", "-Wall"])
    ],
    options={"bdist_wheel": {"py_limited_api": "cp39"}},
)
