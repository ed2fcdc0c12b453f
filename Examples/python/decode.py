#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Decode payloads with libsatchel from Python (ctypes only) and print them as JSON.

    decode.py CONTENT-TYPE FILE [CONTENT-TYPE FILE]...

"-" as CONTENT-TYPE sniffs the format from the bytes. Exit status 0, or 1 with libsatchel's
message on stderr.
"""
import ctypes
import sys

from satchel_ctypes import Handle, SatchelError, check, lib, to_json


def main(arguments):
    if len(arguments) < 2 or len(arguments) % 2:
        print("usage: decode.py CONTENT-TYPE FILE [CONTENT-TYPE FILE]...", file=sys.stderr)
        return 64
    registry = Handle()
    check(lib.satchel_registry_create(ctypes.byref(registry)), "registry")
    try:
        for content_type, path in zip(arguments[::2], arguments[1::2]):
            with open(path, "rb") as file:
                body = file.read()
            value = Handle()
            type_bytes = None if content_type == "-" else content_type.encode()
            check(lib.satchel_registry_decode(ctypes.byref(value), registry, type_bytes, len(type_bytes or b""), body, len(body)), path)
            try:
                print(f"== {path} ({content_type})")
                print(to_json(value) if value.value else "(no value)")
            finally:
                lib.satchel_value_free(value)
    except SatchelError as error:
        print(f"decode.py: {error}", file=sys.stderr)
        return 1
    finally:
        lib.satchel_registry_free(registry)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
