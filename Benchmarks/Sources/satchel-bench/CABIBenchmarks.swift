// SPDX-License-Identifier: Apache-2.0
import CSatchelABIBaseline
import Foundation
import Satchel

/// The C ABI's overhead on a decode: C calling libsatchel (`satchel_registry_decode`, then
/// `satchel_value_free`) against Swift calling `Registry.decode` on a registry with the same
/// contents (`Registry.standard()`, which `satchel_registry_create` makes too), on the same bytes.
///
/// The C side loads the library with `dlopen` (``libraryPath``): the runner itself links Satchel
/// statically, so libsatchel brings its own copy, as it would into a C host.
struct CABIBenchmarks {
    /// One input: a corpus file and the Content-Type both sides decode it as.
    struct Input {
        /// The path under the corpus folder.
        let path: String
        /// The Content-Type passed to both sides.
        let contentType: String
        /// The `satchel_type` the value must have (9 object, 11 image).
        let expectedType: Int32
    }

    /// The inputs, in report order.
    static let inputs = [
        Input(path: "json/twitter.json", contentType: "application/json", expectedType: 9),
        Input(path: "transport/small.json", contentType: "application/json", expectedType: 9),
        Input(path: "form/nested.txt", contentType: "application/x-www-form-urlencoded", expectedType: 9),
        Input(path: "capi/small.png", contentType: "image/png", expectedType: 11),
    ]

    /// The inputs.
    let corpus: Corpus
    /// The timer.
    let sampler: Sampler

    /// `SATCHEL_BENCH_LIBSATCHEL`, or `libSatchelC.so` beside this executable (SwiftPM builds it
    /// there: `swift build -c release --package-path Benchmarks --product SatchelC`).
    static var libraryPath: String {
        if let path = ProcessInfo.processInfo.environment["SATCHEL_BENCH_LIBSATCHEL"], !path.isEmpty { return path }
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("libSatchelC.so")
            .path
    }

    /// Guards, then times every input.
    func run() throws -> [ComparisonTable] {
        var message = [CChar](repeating: 0, count: 512)
        guard let abi = satchel_bench_abi_open(Self.libraryPath, &message, message.count) else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw BenchmarkFailure.corpus(
                "\(reason) (build it with: swift build -c release --package-path Benchmarks --product SatchelC)")
        }
        defer { satchel_bench_abi_close(abi) }
        let registry = Registry.standard()
        var table = ComparisonTable(
            title: "C ABI overhead on a decode: Swift calling Registry.decode vs C calling libsatchel",
            satchelCall: "registry.decode(bytes, contentType: mediaType) (MediaType parsed once)",
            peerName: "C via libsatchel",
            peerCall: "satchel_registry_decode(&value, registry, content_type, …); satchel_value_free(value)",
            sizeNote: "the body; a ratio below 1.00× is the C path's overhead")
        for input in Self.inputs {
            let file = try corpus.file(input.path)
            let mediaType = try MediaType(parsing: input.contentType)
            let bytes = file.bytes
            let swiftValue = try registry.decode(bytes, contentType: mediaType)
            let cType = Self.decode(abi, input.contentType, bytes)
            guard cType == input.expectedType, Self.type(of: swiftValue) == input.expectedType else {
                throw BenchmarkFailure.guardFailed(
                    "\(file.name): C decoded satchel_type/status \(cType), Swift \(Self.type(of: swiftValue)), expected \(input.expectedType)"
                )
            }
            Progress.note("capi \(file.name)")
            let contentType = input.contentType
            let samples = try sampler.measure([
                { try registry.decode(bytes, contentType: mediaType) as Any },
                { Self.decode(abi, contentType, bytes) },
            ])
            table.rows.append(Comparison(input: file.name, bytes: bytes.count, satchel: samples[0], peer: samples[1]))
        }
        return [table]
    }

    /// The C side's decode of `bytes`: the `satchel_type` of the value, or minus the status.
    private static func decode(_ abi: OpaquePointer, _ contentType: String, _ bytes: [UInt8]) -> Int32 {
        bytes.withUnsafeBytes { satchel_bench_abi_decode(abi, contentType, $0.baseAddress, $0.count) }
    }

    /// The `satchel_type` a Swift value maps to, for the inputs' kinds (object, image payload).
    private static func type(of value: Value?) -> Int32 {
        switch value {
        case .object: 9
        case .payload(let payload) where payload is DecodedImage: 11
        default: -1
        }
    }
}
