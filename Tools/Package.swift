// swift-tools-version:6.1
import PackageDescription

// The `satchel` command and its embedded fixture server (`satchel serve`): a package of their own,
// so that a package depending on the `Satchel` library never resolves Hummingbird, SwiftNIO,
// swift-argument-parser or the rest of what only the tool needs (CONTRIBUTING.md, Layout).
//
//   swift build --package-path Tools --product satchel
let package = Package(
    name: "SatchelTools",
    products: [
        .executable(name: "satchel", targets: ["satchel"])
    ],
    dependencies: [
        .package(name: "Satchel", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/onevcat/Rainbow", from: "4.2.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // libpng and libjpeg encoders for the fixture server's images (setjmp error exits in C).
        .target(
            name: "CSatchelFixtureImages",
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg")]
        ),
        // The embedded fixture server behind `satchel serve` (Hummingbird; TLS with generated certificates).
        .target(
            name: "SatchelServer",
            dependencies: [
                .product(name: "Satchel", package: "Satchel"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                "CSatchelFixtureImages",
            ]
        ),
        // The command-line tool.
        .executableTarget(
            name: "satchel",
            dependencies: [
                .product(name: "Satchel", package: "Satchel"),
                "SatchelServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Rainbow", package: "Rainbow"),
            ]
        ),
        // The root package's test support (Tests/SatchelTestSupport), its files linked in: a
        // target's sources must lie inside its package, and the module is not a library product.
        .target(name: "SatchelTestSupport", path: "Tests/SatchelTestSupport"),
        .testTarget(
            name: "SatchelCLITests",
            dependencies: [.product(name: "Satchel", package: "Satchel"), "satchel", "SatchelTestSupport"]
        ),
        .testTarget(
            name: "SatchelServerTests",
            dependencies: [
                .product(name: "Satchel", package: "Satchel"), "SatchelServer", "satchel", "SatchelTestSupport",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
