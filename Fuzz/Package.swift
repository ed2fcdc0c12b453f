// swift-tools-version:6.1
// SPDX-License-Identifier: Apache-2.0
import PackageDescription

// Satchel's fuzz targets: a separate package so the main package carries no fuzzing code and the
// sanitized build stays apart. One libFuzzer executable, `satchel-fuzz`, holds every target; the
// target is picked at start-up (`--target=NAME` or SATCHEL_FUZZ_TARGET). Build and run with
// `scripts/fuzz TARGET SECONDS` (see docs/Fuzzing.md).
let package = Package(
    name: "SatchelFuzz",
    dependencies: [
        // The trait as scripts/test builds the library, so that --in-test-build reuses its modules.
        .package(name: "Satchel", path: "..", traits: ["OpenAPI"])
    ],
    targets: [
        // The entry point of a debug build (scripts/fuzz --in-test-build), in C: it calls
        // libFuzzer's driver, which Swift cannot declare with C's calling convention.
        .target(name: "CSatchelFuzzMain"),
        .executableTarget(
            name: "satchel-fuzz",
            dependencies: [.product(name: "Satchel", package: "Satchel"), "CSatchelFuzzMain"],
            // libFuzzer brings its own `main`; the module must not define one.
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// `scripts/fuzz --in-test-build` builds this package in the tests' build folder, where
// SATCHEL_SANITIZER=address,fuzzer has instrumented the library (../Package.swift): the executable
// is compiled with the same sanitizers and links libFuzzer's main and AddressSanitizer's runtime.
// The release build of the long runs passes the sanitizers on the command line instead.
if let sanitizers = Context.environment["SATCHEL_SANITIZER"], sanitizers.split(separator: ",").contains("fuzzer") {
    for target in package.targets {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-sanitize=\(sanitizers)"])]
        target.linkerSettings = [.unsafeFlags(["-sanitize=\(sanitizers)"])]
    }
}
