// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Satchel",
    products: [
        .library(name: "Satchel", targets: ["Satchel"]),
        .executable(name: "satchel", targets: ["satchel"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        // Core: values, media types, protocols, registry, limits, errors. No C dependencies.
        .target(
            name: "SerializerRegistry",
            dependencies: [
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        // json-c, found through pkg-config.
        .systemLibrary(
            name: "CJSONC",
            pkgConfig: "json-c",
            providers: [.apt(["libjson-c-dev"])]
        ),
        // Concrete serializers: form, JSON, multipart.
        .target(
            name: "Serializers",
            dependencies: [
                "SerializerRegistry",
                "CJSONC",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Umbrella module: `import Satchel`.
        .target(
            name: "Satchel",
            dependencies: ["SerializerRegistry", "Serializers"]
        ),
        // The command-line tool.
        .executableTarget(
            name: "satchel",
            dependencies: [
                "Satchel",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "SerializerRegistryTests", dependencies: ["SerializerRegistry"]),
        .testTarget(
            name: "SerializersTests",
            dependencies: ["Serializers", "SerializerRegistry", "CJSONC"]
        ),
        .testTarget(name: "SatchelCLITests", dependencies: ["Satchel", "satchel"]),
    ],
    swiftLanguageModes: [.v6]
)
