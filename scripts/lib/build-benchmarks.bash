# SPDX-License-Identifier: Apache-2.0
# Sourced by the benchmark scripts (needs $root): builds products of the Benchmarks package in
# release mode. SwiftPM 6.3 keeps a stale build plan when source files were added to the main
# package (a path dependency there) and then fails with "cannot find 'X' in scope"; without the
# plan it plans again, in seconds, keeping the compiled objects.
build_benchmarks() {
  rm -f "$root/Benchmarks/.build/release.yaml"
  local product
  for product in "$@"; do
    swift build -c release --package-path "$root/Benchmarks" --product "$product" >&2
  done
}
