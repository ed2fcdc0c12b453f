#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Lists the declarations a swift-api-digester dump has that a baseline dump lacks: the
additions scripts/check-compatibility reports (they pass; breaks are -diagnose-sdk's).

    python3 scripts/lib/api-additions.py BASELINE.json CURRENT.json
"""
import json
import sys

DECLARATIONS = {"TypeDecl", "Function", "Constructor", "Var", "Subscript", "TypeAlias", "AssociatedType",
                "EnumElement", "Accessor", "Macro"}


def declarations(path):
    found = {}

    def walk(node, parent):
        name = node.get("printedName", "")
        qualified = f"{parent}.{name}" if parent and node.get("kind") in DECLARATIONS else name
        usr = node.get("usr")
        if node.get("kind") in DECLARATIONS and usr and node.get("kind") != "Accessor":
            found[usr] = qualified
        for child in node.get("children", []):
            walk(child, qualified if node.get("kind") == "TypeDecl" else parent)

    walk(json.load(open(path, encoding="utf-8"))["ABIRoot"], "")
    return found


baseline, current = declarations(sys.argv[1]), declarations(sys.argv[2])
for usr in sorted(set(current) - set(baseline), key=lambda usr: current[usr]):
    print(current[usr])
