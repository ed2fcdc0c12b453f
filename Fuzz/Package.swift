// swift-tools-version:6.1
import PackageDescription

// Satchel's fuzz targets: a separate package so the main package carries no fuzzing code and the
// sanitized build stays apart. One libFuzzer executable, `satchel-fuzz`, holds every target; the
// target is picked at start-up (`--target=NAME` or SATCHEL_FUZZ_TARGET). Build and run with
// `scripts/fuzz TARGET SECONDS` (see docs/Fuzzing.md).
let package = Package(
    name: "SatchelFuzz",
    dependencies: [
        .package(name: "Satchel", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "satchel-fuzz",
            dependencies: [.product(name: "Satchel", package: "Satchel")],
            // libFuzzer brings its own `main`; the module must not define one.
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        )
    ],
    swiftLanguageModes: [.v6]
)
