// swift-tools-version:6.1
// SPDX-License-Identifier: Apache-2.0
import PackageDescription

// The library: `import Satchel` (Swift) and libsatchel (C). The `satchel` command and its fixture
// server are the package in Tools/, so that depending on this one resolves only what the library
// imports; Benchmarks/ and Fuzz/ are packages of their own too.
let package = Package(
    name: "Satchel",
    products: [
        .library(name: "Satchel", targets: ["Satchel"]),
        // libsatchel.so: the C ABI. Named apart from Tools' `satchel` executable (docs/CAPI.md); the
        // SONAME and the install step (scripts/install-c-library) give it its public name.
        .library(name: "SatchelC", type: .dynamic, targets: ["CAPI"]),
        // `SatchelClientTransport`, a swift-openapi-runtime `ClientTransport` over a Session: empty
        // unless the `OpenAPI` trait is on, so that the library alone never resolves OpenAPI packages.
        .library(name: "SatchelOpenAPI", targets: ["SatchelOpenAPI"]),
    ],
    traits: [
        .trait(
            name: "OpenAPI",
            description:
                "The SatchelOpenAPI library: SatchelClientTransport for clients made by swift-openapi-generator"
        ),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // Spans and metrics: small API packages (what async-http-client depends on too); nothing
        // is recorded unless the application bootstraps a tracer or a metrics backend.
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.3.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        // Only with the `OpenAPI` trait (SwiftPM does not resolve it otherwise: scripts/check-consumer).
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.8.0"),
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
            name: "CSatchelJSONC",
            pkgConfig: "json-c",
            providers: [.apt(["libjson-c-dev"])]
        ),
        // libxml2, found through pkg-config.
        .systemLibrary(
            name: "CSatchelLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // libpng and libjpeg behind a small C shim: their errors exit by longjmp, which Swift
        // cannot catch, so the setjmp points live in C.
        .target(
            name: "CSatchelImageCodecs",
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg")]
        ),
        // Concrete serializers: form, JSON, multipart, XML, property lists, images.
        .target(
            name: "Serializers",
            dependencies: [
                "SerializerRegistry",
                "CSatchelJSONC",
                "CSatchelLibXML2",
                "CSatchelImageCodecs",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ]
        ),
        // libcurl behind typed setters: curl_easy_setopt and curl_easy_getinfo are variadic.
        .target(
            name: "CSatchelCurl",
            linkerSettings: [.linkedLibrary("curl")]
        ),
        // rtnetlink's NLMSG_*/RTA_* macros as functions, for the reachability monitor.
        .target(name: "CSatchelNetlink"),
        // sync_file_range (declared only under _GNU_SOURCE), for downloads' early writeback.
        .target(name: "CSatchelFile"),
        // HTTP over libcurl's multi interface: sessions, streaming bodies, security policy. Knows
        // the registry, never a concrete format.
        .target(
            name: "Transport",
            dependencies: [
                "SerializerRegistry",
                "CSatchelCurl",
                "CSatchelFile",
                "CSatchelNetlink",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        // Umbrella module: `import Satchel`; what needs both the formats and the transport (a
        // session over the standard registry).
        .target(
            name: "Satchel",
            dependencies: ["SerializerRegistry", "Serializers", "Transport"]
        ),
        // The OpenAPI client transport (`OpenAPI` trait): Satchel's Session behind OpenAPIRuntime's
        // ClientTransport. Its tests run in Tools/, which turns the trait on.
        .target(
            name: "SatchelOpenAPI",
            dependencies: [
                "Satchel",
                .product(
                    name: "OpenAPIRuntime", package: "swift-openapi-runtime", condition: .when(traits: ["OpenAPI"])),
            ]
        ),
        // include/satchel.h as a Clang module, so the CAPI target is checked against it.
        .systemLibrary(name: "CSatchel", path: "include"),
        // The C ABI: @c @implementation of every function in include/satchel.h, nothing else.
        .target(
            name: "CAPI",
            dependencies: ["CSatchel", "SerializerRegistry", "Serializers", "Transport"],
            // No linker flags here: they would apply to the test bundles too (a version script
            // hid AddressSanitizer's allocator from the Swift runtime there). The SONAME, the
            // exports and the static runtime are given by scripts/install-c-library's link.
            exclude: ["satchel.map", "satchel.pc.in", "libsatchel.supp", "libcurl-loader.c"]
        ),
        .testTarget(name: "SerializerRegistryTests", dependencies: ["SerializerRegistry", "SatchelTestSupport"]),
        .testTarget(
            name: "SerializersTests",
            dependencies: [
                "Serializers", "SerializerRegistry", "CSatchelJSONC", "CSatchelLibXML2", "CSatchelImageCodecs",
                "SatchelTestSupport",
            ]
        ),
        // Test servers (scripts/test-servers.py) and the .venv Python, shared by the test targets.
        .target(name: "SatchelTestSupport", path: "Tests/SatchelTestSupport"),
        .testTarget(
            name: "TransportTests",
            dependencies: [
                "Transport", "Serializers", "SerializerRegistry", "SatchelTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
        // The C ABI from C: compilers, the installed library, valgrind, AddressSanitizer, examples.
        .testTarget(name: "SatchelTests", dependencies: ["Satchel", "SatchelTestSupport"]),
        .testTarget(
            name: "CAPITests",
            dependencies: ["CAPI", "SerializerRegistry", "Serializers", "SatchelTestSupport"],
            exclude: ["c", "swift"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

/// Adds flags to the library's own modules, every regular target but the test support: the tests,
/// Tools/ and the third-party packages keep their objects, so a build with them in the normal build
/// folder compiles only the library again (the modules that import it see the same interface and
/// are not recompiled) and relinks the test bundles and the `satchel` command.
@MainActor func instrumentLibrary(swift: [String], c: [String], linker: [String]) {
    for target in package.targets where target.type == .regular && target.name != "SatchelTestSupport" {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(swift)]
        target.cSettings = (target.cSettings ?? []) + [.unsafeFlags(c)]
        if !linker.isEmpty {
            target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(linker)]
        }
    }
}

// SATCHEL_SANITIZER=address (scripts/test-sanitized): the library under AddressSanitizer. With
// `fuzzer` in the list (address,fuzzer) it also carries libFuzzer's coverage instrumentation, so
// that Fuzz/ links its targets from the same build (scripts/fuzz --in-test-build); only the fuzz
// executable links libFuzzer itself.
let sanitizers = (Context.environment["SATCHEL_SANITIZER"] ?? "").split(separator: ",").map(String.init)
if !sanitizers.isEmpty {
    let linked = sanitizers.filter { $0 != "fuzzer" }
    instrumentLibrary(
        swift: ["-sanitize=" + sanitizers.joined(separator: ",")],
        c: ["-fsanitize=" + sanitizers.map { $0 == "fuzzer" ? "fuzzer-no-link" : $0 }.joined(separator: ",")],
        linker: linked.isEmpty ? [] : ["-sanitize=" + linked.joined(separator: ",")]
    )
}

// SATCHEL_COVERAGE=1 (scripts/coverage): the library with the toolchain's source-based coverage, in
// the same way, so that the figures count the library's lines and not the tests' or the packages'.
if Context.environment["SATCHEL_COVERAGE"] == "1" {
    instrumentLibrary(
        swift: ["-profile-generate", "-profile-coverage-mapping"],
        c: ["-fprofile-instr-generate", "-fcoverage-mapping"],
        linker: ["-profile-generate"]
    )
}
