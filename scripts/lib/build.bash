# SPDX-License-Identifier: Apache-2.0
# Sourced by scripts/test, scripts/test-sanitized, scripts/test-python and
# scripts/measure-transport-memory (needs $root): the one debug build of both packages.
#
# The library (here) and Tools/ build into one scratch folder, .build, with the root's `OpenAPI`
# trait on, as Tools turns it on: the commands SwiftPM makes for the library's modules are then
# the same in both packages, so the library is compiled once, not once per package. Tools' own
# test bundle, the `satchel` executable and libSatchelC all end up in .build/debug.
#
#   swift build "${library_build[@]}" ...   the library's package
#   swift build "${tools_build[@]}" ...     Tools/
#
# SATCHEL_SANITIZE=address in the environment makes the same build instrument Satchel's own
# modules (the library, its C shims, the command, the fixture server and the tests) with
# AddressSanitizer, in the same folder: the third-party packages keep their objects and are not
# compiled again (Package.swift, Tools/Package.swift; scripts/test-sanitized).
library_build=(--scratch-path "$root/.build" --traits OpenAPI)
tools_build=(--scratch-path "$root/.build" --package-path "$root/Tools")
