// swift-tools-version:6.1
import PackageDescription

// Satchel's benchmarks: a separate package so the main package carries no benchmark code and no
// peer dependencies. Run with `scripts/bench` (or
// `swift run -c release --package-path Benchmarks satchel-bench`).
let package = Package(
    name: "SatchelBenchmarks",
    dependencies: [
        .package(name: "Satchel", path: ".."),
        // The multipart peer: vapor's serializer and parser.
        .package(url: "https://github.com/vapor/multipart-kit", exact: "4.7.1"),
        // The XML model peer: what Swift users decode XML into models with.
        .package(url: "https://github.com/CoreOffice/XMLCoder", exact: "0.18.2"),
        // The transport peer: what a Swift server or tool on Linux uses for HTTP instead.
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // The Swift server ecosystem's readers of event streams (SSE, JSON Lines), as generated
        // OpenAPI clients use them.
        .package(url: "https://github.com/apple/swift-openapi-runtime", exact: "1.13.4"),
    ],
    targets: [
        // The raw json-c baseline: json-c's own strict parse, with no validator and no tree walk.
        // (Not named CSatchelJSONC: the main package already has a module of that name.)
        .target(
            name: "CJSONCBaseline",
            linkerSettings: [.linkedLibrary("json-c")]
        ),
        // The raw libxml2 baselines: xmlReadMemory and a SAX push parse with empty callbacks.
        .target(
            name: "CLibXML2Baseline",
            cSettings: [.unsafeFlags(["-I/usr/include/libxml2"])],
            linkerSettings: [.linkedLibrary("xml2")]
        ),
        // The raw libpng and libjpeg baselines: decode straight from memory in C.
        .target(
            name: "CImageBaseline",
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg")]
        ),
        // The raw libplist 2.2 baseline (Debian's libplist-dev): its own parse and writers.
        .target(
            name: "CPlistBaseline",
            linkerSettings: [.linkedLibrary("plist-2.0")]
        ),
        // The raw libcurl baseline: a multi loop of keep-alive GETs, each body parsed by json-c.
        .target(
            name: "CCurlBaseline",
            linkerSettings: [.linkedLibrary("curl"), .linkedLibrary("json-c")]
        ),
        // The C table encoder: AFNetworking's percent-encoding of a flat table of pairs, in C.
        .target(name: "CFormBaseline"),
        // The C side of the C ABI benchmark: a C caller of libsatchel (dlopen'd; satchel.h from
        // the main package's include/).
        .target(
            name: "CSatchelABIBaseline",
            cSettings: [.unsafeFlags(["-I\(Context.packageDirectory)/../include"])],
            linkerSettings: [.linkedLibrary("dl")]
        ),
        // The runner: Satchel against Foundation, the C libraries and the Swift peers, side by side
        // in one run.
        .executableTarget(
            name: "satchel-bench",
            dependencies: [
                .product(name: "Satchel", package: "Satchel"),
                "CJSONCBaseline",
                "CLibXML2Baseline",
                "CImageBaseline",
                "CPlistBaseline",
                "CCurlBaseline",
                "CSatchelABIBaseline",
                "CFormBaseline",
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "XMLCoder", package: "XMLCoder"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ]
        ),
        // A small driver for profiling the transport's per-request cost (callgrind, perf).
        .executableTarget(
            name: "transport-probe",
            dependencies: [
                .product(name: "Satchel", package: "Satchel"), "CCurlBaseline",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
