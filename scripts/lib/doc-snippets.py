#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Type-checks the ```swift blocks of Markdown files (scripts/check-doc-snippets runs it).

    python3 scripts/lib/doc-snippets.py --root ROOT --work DIR --flags FILE --manifest-api DIR FILE.md...

FILE holds the compiler's flags for the library's modules and the preamble's, one a line. Each
Markdown file's blocks become one Swift file, type-checked on its own (`swiftc -typecheck`, Swift 6
mode), with `#sourceLocation` lines so that every error names the Markdown file and line. What a
block becomes:

- a block that imports PackageDescription: a whole manifest, type-checked against the toolchain's
  PackageDescription (its `swift-tools-version` line gives the version);
- a block of manifest fragments (lines that start with `.package(` or `.product(`): each
  `.package(…)` checked as a `Package.Dependency`, each `.product(…)` as a `Target.Dependency`;
- a block of declarations only (types, extensions, functions, `@Test`s): at the file's top level,
  where the next blocks of the same file see them;
- any other block: the body of an `async throws` function of its own, after `import Satchel` and
  `@testable import DocSnippetPreamble` (scripts/lib/doc-snippet-preamble.swift: `session`,
  `User`, … what the docs assume); the types it declares at its top level (struct, class, enum,
  actor, protocol, extension) are moved to the file's top level, so later blocks of the file see
  them too. Its `import` lines are moved to the top of the file.

`<!-- snippet: skip (reason) -->` on the line before a block's fence leaves the block out; the
reason is required. Exits 1 when a block fails, naming each failing block; 2 on a usage error.
"""
import argparse
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field

FENCE = re.compile(r"^(\s*)```\s*([A-Za-z0-9_+-]*)\s*$")
MARKER = re.compile(r"^\s*<!--\s*snippet:\s*(.*?)\s*-->\s*$")
SKIP = re.compile(r"^skip\s*\((.*\S.*)\)$")
IMPORT = re.compile(r"^\s*(@testable\s+|@_exported\s+)?import\s+\w+")
ATTRIBUTES = r"(?:@\w+(?:\([^)]*\))?\s+)*"
MODIFIERS = r"(?:(?:public|private|fileprivate|internal|package|final|open|indirect|nonisolated)\s+)*"
TYPE_DECLARATION = re.compile(rf"^{ATTRIBUTES}{MODIFIERS}(?:struct|class|enum|actor|protocol|extension)\b")
DECLARATION = re.compile(
    rf"^{ATTRIBUTES}{MODIFIERS}(?:struct|class|enum|actor|protocol|extension|func|typealias)\b")
MANIFEST_FRAGMENT = re.compile(r"^\.(package|product)\(")
DIAGNOSTIC = re.compile(r"^(.+?):(\d+):(\d+): (error|warning|note): (.*)$")


@dataclass
class Block:
    path: str  # relative to the root
    fence_line: int  # 1-based line of the opening fence
    lines: list  # the block's lines, the fence's indentation removed
    skip: str = None  # the reason, when marked skip
    kind: str = ""  # manifest, manifest-fragment, declarations, statements, skipped
    errors: list = field(default_factory=list)

    @property
    def first_line(self):
        return self.fence_line + 1

    @property
    def name(self):
        return f"{self.path}:{self.fence_line}"


class UsageError(Exception):
    pass


def extract(root, path):
    """The ```swift blocks of one Markdown file."""
    text = open(os.path.join(root, path), encoding="utf-8").read().split("\n")
    blocks = []
    index = 0
    while index < len(text):
        fence = FENCE.match(text[index])
        if not fence or not fence.group(2):
            index += 1
            continue
        indent, language = fence.group(1), fence.group(2)
        end = index + 1
        while end < len(text) and not re.match(rf"^{re.escape(indent)}```\s*$", text[end]):
            end += 1
        if end == len(text):
            raise UsageError(f"{path}:{index + 1}: a ``` block that is never closed")
        if language == "swift":
            lines = [line[len(indent):] if line.startswith(indent) else line.lstrip() for line in text[index + 1:end]]
            block = Block(path, index + 1, lines)
            previous = index - 1
            while previous >= 0 and not text[previous].strip():
                previous -= 1
            marker = MARKER.match(text[previous]) if previous >= 0 else None
            if marker:
                skip = SKIP.match(marker.group(1))
                if not skip:
                    raise UsageError(f"{path}:{previous + 1}: unknown snippet marker '{marker.group(1)}' "
                                     "(the one there is: <!-- snippet: skip (reason) -->, with a reason)")
                block.skip = skip.group(1).strip()
                block.kind = "skipped"
            blocks.append(block)
        index = end + 1
    return blocks


def code_only(line, state):
    """`line` with its string literals and comments blanked out, for counting brackets.
    `state` carries a block comment or a multi-line string into the next line."""
    out = []
    i = 0
    while i < len(line):
        if state["comment"]:
            close = line.find("*/", i)
            if close < 0:
                return "".join(out)
            state["comment"] = False
            i = close + 2
            continue
        if state["multiline"]:
            close = line.find('"""', i)
            if close < 0:
                return "".join(out)
            state["multiline"] = False
            i = close + 3
            continue
        if line.startswith("//", i):
            break
        if line.startswith("/*", i):
            state["comment"] = True
            i += 2
            continue
        raw = re.match(r'#+"', line[i:])
        if line.startswith('"""', i) or (raw and line.startswith('"""', i + len(raw.group(0)) - 1)):
            state["multiline"] = True
            i = line.find('"""', i) + 3
            continue
        if raw or line[i] == '"':
            hashes = len(raw.group(0)) - 1 if raw else 0
            closing = '"' + "#" * hashes
            i += hashes + 1
            while i < len(line):
                if hashes == 0 and line[i] == "\\":
                    i += 2
                    continue
                if line.startswith(closing, i):
                    i += len(closing)
                    break
                i += 1
            out.append('""')
            continue
        out.append(line[i])
        i += 1
    return "".join(out)


def items(lines):
    """The block's top-level items: (first, last) line indexes of each declaration or statement
    that starts at bracket depth 0, with its kind: 'import', 'type', 'declaration' or 'statement'.
    Comment-only and blank lines belong to no item."""
    state = {"comment": False, "multiline": False}
    depth = 0
    found = []
    current = None
    for number, line in enumerate(lines):
        starts_inside = state["comment"] or state["multiline"]
        code = code_only(line, state)
        stripped = line.strip()
        if depth == 0 and not starts_inside and code.strip():
            continuation = stripped.startswith((".", "&&", "||", "?", ":", "+", "-", "*", "=", "->", "}", ")", "]"))
            if current is None or not continuation:
                if IMPORT.match(stripped):
                    kind = "import"
                elif TYPE_DECLARATION.match(stripped):
                    kind = "type"
                elif DECLARATION.match(stripped):
                    kind = "declaration"
                else:
                    kind = "statement"
                current = [number, number, kind]
                found.append(current)
        for character in code:
            if character in "([{":
                depth += 1
            elif character in ")]}":
                depth -= 1
        if current is not None and (code.strip() or depth > 0):
            current[1] = number
    return [tuple(item) for item in found]


def location(path, line):
    return f'#sourceLocation(file: "{path}", line: {line})'


def classify(block):
    if block.skip is not None:
        return
    code = [line for line in block.lines if line.strip() and not line.strip().startswith("//")]
    if any(re.match(r"^\s*import\s+PackageDescription\b", line) for line in code):
        block.kind = "manifest"
    elif code and all(MANIFEST_FRAGMENT.match(line.strip()) for line in code if not line.startswith((" ", "\t"))):
        block.kind = "manifest-fragment"
    elif all(kind in ("import", "type", "declaration") for _, _, kind in items(block.lines)):
        block.kind = "declarations"
    else:
        block.kind = "statements"


def swift_source(blocks):
    """One Swift file (`-parse-as-library`) for the Swift blocks of one Markdown file."""
    imports = {"import Satchel", "@testable import DocSnippetPreamble"}
    top, bodies = [], []
    for number, block in enumerate(blocks):
        if block.kind == "declarations":
            body = list(block.lines)
            for first, last, kind in items(block.lines):
                if kind == "import":
                    imports.add(block.lines[first].strip())
                    body[first] = ""
            top += [location(block.path, block.first_line)] + body + ["#sourceLocation()"]
            continue
        if block.kind != "statements":
            continue
        body = list(block.lines)
        for first, last, kind in items(block.lines):
            if kind == "import":
                imports.add(block.lines[first].strip())
                body[first] = ""
            elif kind == "type":
                top += [location(block.path, block.first_line + first)] + block.lines[first:last + 1]
                top += ["#sourceLocation()"]
                for index in range(first, last + 1):
                    body[index] = ""
        bodies += [f"func snippet{number}AtLine{block.fence_line}() async throws {{",
                   location(block.path, block.first_line)] + body + ["#sourceLocation()", "}"]
    return "\n".join(sorted(imports) + top + bodies) + "\n"


def manifest_source(block):
    if block.kind == "manifest":
        return "\n".join([location(block.path, block.first_line)] + block.lines) + "\n"
    # Fragments: each expression from its `.package(`/`.product(` line to the next one.
    out = ["import PackageDescription"]
    starts = [i for i, line in enumerate(block.lines) if MANIFEST_FRAGMENT.match(line.strip())
              and not line.startswith((" ", "\t"))]
    for position, start in enumerate(starts):
        end = starts[position + 1] if position + 1 < len(starts) else len(block.lines)
        expression = block.lines[start:end]
        kind = "Package.Dependency" if block.lines[start].strip().startswith(".package(") else "Target.Dependency"
        # The directive cannot stand inside the literal: the literal's first line takes the line
        # before the expression's.
        out += [location(block.path, block.first_line + start - 1), f"let fragment{position}: [{kind}] = ["]
        out += expression + ["]", "#sourceLocation()"]
    return "\n".join(out) + "\n"


def tools_version(block):
    for line in block.lines:
        match = re.match(r"^//\s*swift-tools-version\s*:\s*([0-9.]+)", line.strip())
        if match:
            return match.group(1)
    return None


def typecheck(command, blocks, root):
    result = subprocess.run(command, cwd=root, capture_output=True, text=True)
    output = result.stdout + result.stderr
    unplaced = []
    for line in output.splitlines():
        diagnostic = DIAGNOSTIC.match(line)
        if not diagnostic or diagnostic.group(4) != "error":
            continue
        path, number = diagnostic.group(1), int(diagnostic.group(2))
        owner = next((b for b in blocks if b.path == path and b.first_line <= number < b.first_line + len(b.lines)),
                     None)
        if owner:
            owner.errors.append(line)
        else:
            unplaced.append(line)
    if result.returncode != 0 and not any(b.errors for b in blocks) and not unplaced:
        unplaced.append(output.strip() or f"swiftc exited {result.returncode}")
    return unplaced


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--flags", required=True)
    parser.add_argument("--manifest-api", required=True)
    parser.add_argument("--manifest-tools-version", default="6.1")
    parser.add_argument("files", nargs="+")
    arguments = parser.parse_args()
    flags = [line for line in open(arguments.flags).read().split("\n") if line]
    base = ["swiftc", "-typecheck", "-swift-version", "6", "-suppress-warnings", "-diagnostic-style", "llvm"]

    try:
        every = []
        for path in arguments.files:
            every += extract(arguments.root, path)
    except UsageError as error:
        print(f"check-doc-snippets: {error}", file=sys.stderr)
        return 2
    for block in every:
        classify(block)

    unplaced = []
    for index, path in enumerate(arguments.files):
        blocks = [b for b in every if b.path == path]
        swift = [b for b in blocks if b.kind in ("declarations", "statements")]
        if swift:
            source = os.path.join(arguments.work, f"snippets{index}.swift")
            with open(source, "w") as out:
                out.write(swift_source(swift))
            unplaced += typecheck(base + ["-parse-as-library", "-module-name", "DocSnippets"] + flags + [source],
                                  swift, arguments.root)
        for number, block in enumerate(b for b in blocks if b.kind.startswith("manifest")):
            source = os.path.join(arguments.work, f"manifest{index}-{number}.swift")
            with open(source, "w") as out:
                out.write(manifest_source(block))
            version = tools_version(block) or arguments.manifest_tools_version
            unplaced += typecheck(base + ["-I", arguments.manifest_api, "-package-description-version", version,
                                          source], [block], arguments.root)

    failed = [b for b in every if b.errors]
    for block in failed:
        print("\n".join(block.errors), file=sys.stderr)
    for line in unplaced:
        print(line, file=sys.stderr)
    counts = {}
    for block in every:
        counts[block.kind] = counts.get(block.kind, 0) + 1
    summary = ", ".join(f"{counts[kind]} {kind}" for kind in
                        ("statements", "declarations", "manifest", "manifest-fragment", "skipped") if kind in counts)
    files = len({block.path for block in every})
    print(f"check-doc-snippets: {len(every)} swift blocks in {files} files ({summary})")
    for block in every:
        if block.skip is not None:
            print(f"  skipped: {block.name} ({block.skip})")
    if failed or unplaced:
        for block in failed:
            print(f"check-doc-snippets: {block.name}: this block does not compile", file=sys.stderr)
        if unplaced:
            print("check-doc-snippets: errors outside any block (above)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
