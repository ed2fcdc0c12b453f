#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The independent property-list peer for Satchel's tests: Python's plistlib.

  plist_peer.py convert IN OUT   read a plist in format IN (xml|binary) from standard input and
                                 write it in format OUT, members in the order read
  plist_peer.py sample FORMAT    write a fixed sample tree (every plist type) in FORMAT
"""
import datetime
import plistlib
import sys

FORMATS = {"xml": plistlib.FMT_XML, "binary": plistlib.FMT_BINARY}


def sample():
    return {
        "string": "hello",
        "unicode": "Zürich 日本語 🎒",
        "empty": "",
        "escapes": "a < b & c > d",
        "small": 7,
        "negative": -42,
        "int32": 2**31,
        "int64min": -(2**63),
        "int64max": 2**63 - 1,
        "uint64max": 2**64 - 1,
        "real": 3.25,
        "tiny": 1e-300,
        "true": True,
        "false": False,
        "date": datetime.datetime(2026, 11, 22, 12, 34, 56),
        "data": bytes(range(256)),
        "array": [1, "two", [3.5, {}], []],
        "nested": {"a": {"b": {"c": [True]}}},
    }


def main():
    command = sys.argv[1]
    if command == "convert":
        value = plistlib.loads(sys.stdin.buffer.read(), fmt=FORMATS[sys.argv[2]], dict_type=dict)
        sys.stdout.buffer.write(plistlib.dumps(value, fmt=FORMATS[sys.argv[3]], sort_keys=False))
    elif command == "sample":
        sys.stdout.buffer.write(plistlib.dumps(sample(), fmt=FORMATS[sys.argv[2]], sort_keys=False))
    elif command == "uid":
        sys.stdout.buffer.write(plistlib.dumps({"$top": {"root": plistlib.UID(1)}, "big": plistlib.UID(2**40)},
                                               fmt=plistlib.FMT_BINARY, sort_keys=False))
    else:
        sys.exit(f"unknown command {command}")


if __name__ == "__main__":
    main()
