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
# SATCHEL_SANITIZER=address in the environment makes the same build instrument the library's
# modules and its C shims with AddressSanitizer, in the same folder: the tests, Tools/ and the
# third-party packages keep their objects and are only relinked (Package.swift,
# scripts/test-sanitized).
library_build=(--scratch-path "$root/.build" --traits OpenAPI)
tools_build=(--scratch-path "$root/.build" --package-path "$root/Tools")
# Running what is built: several suites (and the Debian packages' test) run at once in
# scripts/test, and none of them writes the build, so none waits for .build's lock (SwiftPM takes
# it even with --skip-build, and the first suite to start would hold the others back).
run_built=(--skip-build --ignore-lock)

# The compiler's view of the library's modules in a build's products folder, as SwiftPM gives it to
# the compiler: the Swift modules and the C shims' module maps and headers. One flag a line, for
# the tools that load the built modules (swift-api-digester in scripts/check-compatibility,
# swift-symbolgraph-extract in scripts/docs): mapfile -t flags < <(library_module_flags "$bin").
library_module_flags() {
  printf '%s\n' -I "$1/Modules"
  local map include
  for map in "$1"/CSatchel*.build/module.modulemap "$root"/Sources/CSatchel*/module.modulemap; do
    [ -f "$map" ] && printf '%s\n' -Xcc "-fmodule-map-file=$map"
  done
  for include in "$root"/Sources/CSatchel*/include; do printf '%s\n' -Xcc "-I$include"; done
  # The system libraries' headers the shims include (libxml2's live in a folder of their own).
  local flag
  # shellcheck disable=SC2046  # pkg-config's output is a list of words
  for flag in $(pkg-config --cflags-only-I $(sed -n 's/^Requires.private: *//p' "$root/Sources/CAPI/satchel.pc.in" | tr -d ',')); do
    printf '%s\n' -Xcc "$flag"
  done
}

# The path of a tool that comes with the Swift toolchain (llvm-cov, docc, swift-api-digester …),
# beside the `swift` on PATH; fails with the tool's name when the toolchain lacks it.
toolchain_tool() { # NAME
  local tool
  tool="$(dirname "$(readlink -f "$(command -v swift)")")/$1"
  [ -x "$tool" ] || { echo "$(basename "$0"): $tool is missing (it comes with the Swift toolchain)" >&2; return 69; }
  echo "$tool"
}

# The library tests a sanitized build cannot run (scripts/test-sanitized, scripts/coverage's asan
# suite): the C interface's programs load libsatchel into C, C++ and Python processes that carry
# no sanitizer runtime, which an instrumented library cannot run in, and the installed library's
# checks link it without one. They run against the normal build in scripts/test.
# shellcheck disable=SC2034  # used by the scripts that source this file
sanitized_skip='ABIProgramTests|ExampleTests|MultipartSenderCaseCTests|LibcurlLoadingTests|HeaderTests|SelfContainedLibraryTests|DebianPackageTests'
