// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Satchel",
    products: [
        .library(name: "Satchel", targets: ["Satchel"]),
        .executable(name: "satchel", targets: ["satchel"]),
        // libsatchel.so: the C ABI. Named apart from the executable (DESIGN §4); the SONAME and
        // the install step (scripts/install-c-library) give it its public name.
        .library(name: "SatchelC", type: .dynamic, targets: ["CAPI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
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
        // libxml2, found through pkg-config.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // libpng and libjpeg behind a small C shim: their errors exit by longjmp, which Swift
        // cannot catch, so the setjmp points live in C.
        .target(
            name: "CImageCodecs",
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg")]
        ),
        // Concrete serializers: form, JSON, multipart, XML, property lists, images.
        .target(
            name: "Serializers",
            dependencies: [
                "SerializerRegistry",
                "CJSONC",
                "CLibXML2",
                "CImageCodecs",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // libcurl behind typed setters: curl_easy_setopt and curl_easy_getinfo are variadic.
        .target(
            name: "CCurl",
            linkerSettings: [.linkedLibrary("curl")]
        ),
        // rtnetlink's NLMSG_*/RTA_* macros as functions, for the reachability monitor.
        .target(name: "CNetlink"),
        // HTTP over libcurl's multi interface: sessions, streaming bodies, security policy.
        .target(
            name: "Transport",
            dependencies: [
                "SerializerRegistry",
                "Serializers",
                "CCurl",
                "CNetlink",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Umbrella module: `import Satchel`.
        .target(
            name: "Satchel",
            dependencies: ["SerializerRegistry", "Serializers", "Transport"]
        ),
        // include/satchel.h as a Clang module, so the CAPI target is checked against it.
        .systemLibrary(name: "CSatchel", path: "include"),
        // The C ABI: @c @implementation of every function in include/satchel.h, nothing else.
        .target(
            name: "CAPI",
            dependencies: ["CSatchel", "SerializerRegistry", "Serializers", "Transport"],
            exclude: ["satchel.map", "satchel.pc.in"],
            linkerSettings: [
                .unsafeFlags([
                    "-Xlinker", "-soname=libsatchel.so.0",
                    "-Xlinker", "--version-script=\(Context.packageDirectory)/Sources/CAPI/satchel.map",
                ]),
            ]
        ),
        // libpng and libjpeg encoders for the fixture server's images (setjmp error exits in C).
        .target(
            name: "CFixtureImages",
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg")]
        ),
        // The embedded fixture server behind `satchel serve` (Hummingbird; TLS with generated certificates).
        .target(
            name: "SatchelServer",
            dependencies: [
                "Satchel",
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
                "CFixtureImages",
            ]
        ),
        // The command-line tool.
        .executableTarget(
            name: "satchel",
            dependencies: [
                "Satchel",
                "SatchelServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Rainbow", package: "Rainbow"),
            ]
        ),
        .testTarget(name: "SerializerRegistryTests", dependencies: ["SerializerRegistry"]),
        .testTarget(
            name: "SerializersTests",
            dependencies: ["Serializers", "SerializerRegistry", "CJSONC", "CLibXML2", "CImageCodecs"]
        ),
        // Test servers (scripts/test-servers.py) and the .venv Python, shared by the test targets.
        .target(name: "SatchelTestSupport", path: "Tests/SatchelTestSupport"),
        .testTarget(
            name: "TransportTests",
            dependencies: [
                "Transport", "Serializers", "SerializerRegistry", "SatchelTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(name: "SatchelCLITests", dependencies: ["Satchel", "satchel", "SatchelTestSupport"]),
        .testTarget(name: "SatchelServerTests", dependencies: ["SatchelServer", "Satchel", "satchel", "SatchelTestSupport"]),
        // The C ABI from C: compilers, the installed library, valgrind, AddressSanitizer, examples.
        .testTarget(
            name: "CAPITests",
            dependencies: ["CAPI", "SerializerRegistry", "Serializers", "SatchelServer", "SatchelTestSupport"],
            exclude: ["c"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
