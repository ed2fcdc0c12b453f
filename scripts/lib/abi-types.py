#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes a C file whose exported functions take every type and every function that satchel.h
declares, so that its debug information describes the C ABI: the layout of each struct, the
values of each enum and the signature of each function (scripts/check-compatibility compares
it with abidiff). libsatchel itself is Swift, whose debug information does not describe them.

    python3 scripts/lib/abi-types.py include/satchel.h > types.c
"""
import re
import sys

header = open(sys.argv[1], encoding="utf-8").read()
# Comments out, so that names in prose are not taken for declarations.
code = re.sub(r"/\*.*?\*/", " ", header, flags=re.S)
types = sorted(set(re.findall(r"\}\s*(satchel_\w+)\s*;", code))
               | set(re.findall(r"typedef\s+struct\s+\w+\s+(satchel_\w+)\s*;", code))
               | set(re.findall(r"typedef\s+[^;{]*\(\s*\*\s*(satchel_\w+)\s*\)", code)))
functions = sorted(set(re.findall(r"SATCHEL_API\s+[^;(]*?\b(satchel_\w+)\s*\(", code)))
if len(types) < 10 or len(functions) < 50:
    sys.exit(f"abi-types: found only {len(types)} types and {len(functions)} functions in {sys.argv[1]}")
print('#include "satchel.h"')
print("#define PROBE __attribute__((visibility(\"default\"), used))")
for name in types:
    print(f"PROBE void satchel_abi_type_{name}({name} *probe) {{ (void)probe; }}")
for name in functions:
    print(f"PROBE void satchel_abi_function_{name}(__typeof__({name}) *probe) {{ (void)probe; }}")
