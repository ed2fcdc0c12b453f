// swift-tools-version:6.1
import PackageDescription

// Satchel's benchmarks: a separate package so the main package carries no benchmark code and no
// peer dependencies. Run with `scripts/bench-json` (or
// `swift run -c release --package-path Benchmarks satchel-bench`).
let package = Package(
    name: "SatchelBenchmarks",
    dependencies: [
        .package(name: "Satchel", path: "..")
    ],
    targets: [
        // The raw json-c baseline: json-c's own strict parse, with no validator and no tree walk.
        // (Not named CJSONC: the main package already has a module of that name.)
        .target(
            name: "CJSONCBaseline",
            linkerSettings: [.linkedLibrary("json-c")]
        ),
        // The runner: Satchel against Foundation and json-c, side by side in one run.
        .executableTarget(
            name: "satchel-bench",
            dependencies: [
                .product(name: "Satchel", package: "Satchel"),
                "CJSONCBaseline",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
