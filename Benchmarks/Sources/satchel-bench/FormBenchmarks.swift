// SPDX-License-Identifier: Apache-2.0
import Foundation
import Satchel

/// `application/x-www-form-urlencoded` bodies: Satchel's `FormReader` and `FormWriter` against
/// Foundation's `URLComponents`, and the encoder against a C table encoder, on a nested body of
/// 10 000 pairs.
///
/// The two sides do not do quite the same work: Satchel rebuilds the nesting the brackets
/// describe (Rack's rules) and escapes with AFNetworking's narrow character set; Foundation keeps
/// a flat list of name-value pairs and escapes what a query allows. The C encoder gets the pairs
/// already flattened and sorted (``FormPairTable``): it shows what the escaping alone costs.
struct FormBenchmarks {
    /// The inputs.
    let corpus: Corpus
    /// The timer.
    let sampler: Sampler

    /// Guards, then times decoding and encoding.
    func run() throws -> [ComparisonTable] {
        let file = try corpus.form()
        let body = String(decoding: file.bytes, as: UTF8.self)
        let query = "?" + body
        let value = try FormReader().read(file.bytes)
        guard let items = URLComponents(string: query)?.queryItems else {
            throw BenchmarkFailure.guardFailed("URLComponents cannot read \(file.name)")
        }
        try checkDecoders(value: value, items: items, file: file)
        let encoded = try checkEncoders(value: value, items: items, file: file)
        let pairTable = FormPairTable(try FormWriter().pairs(from: value))
        guard pairTable.encodedBytes() == (try FormWriter().write(value)) else {
            throw BenchmarkFailure.guardFailed("\(file.name): the C table encoder's output differs from FormWriter's")
        }

        Progress.note("form decode \(file.name)")
        let bytes = file.bytes
        let decodeSamples = try sampler.measure([
            { try FormReader().read(bytes) },
            { URLComponents(string: query)?.queryItems as Any },
        ])
        Progress.note("form encode \(file.name)")
        let encodeSamples = try sampler.measure([
            { try FormWriter().write(value) },
            { Self.foundationQuery(items) as Any },
            { pairTable.encode() },
        ])

        var decode = ComparisonTable(
            title: "Form decode: Satchel vs Foundation",
            satchelCall: "FormReader().read(bytes)", peerName: "URLComponents",
            peerCall: "URLComponents(string: \"?\" + body)!.queryItems (the string built once)",
            sizeNote: "the form body")
        decode.rows.append(
            Comparison(input: file.name, bytes: bytes.count, satchel: decodeSamples[0], peer: decodeSamples[1]))
        var encode = ComparisonTable(
            title: "Form encode: Satchel vs Foundation",
            satchelCall: "FormWriter().write(value)", peerName: "URLComponents",
            peerCall: "components.queryItems = items; components.percentEncodedQuery", sizeNote: "Satchel's output")
        encode.rows.append(
            Comparison(input: file.name, bytes: encoded, satchel: encodeSamples[0], peer: encodeSamples[1]))
        var encodeC = ComparisonTable(
            title: "Form encode: Satchel vs a C table encoder",
            satchelCall: "FormWriter().write(value)", peerName: "C table encoder",
            peerCall:
                "satchel_bench_form_encode over FormWriter().pairs(from: value), flattened and sorted before timing",
            sizeNote: "Satchel's output (byte for byte the C encoder's)")
        encodeC.rows.append(
            Comparison(input: file.name, bytes: encoded, satchel: encodeSamples[0], peer: encodeSamples[2]))
        return [decode, encode, encodeC]
    }

    /// Foundation's way to build a query from pairs.
    static func foundationQuery(_ items: [URLQueryItem]) -> String? {
        var components = URLComponents()
        components.queryItems = items
        return components.percentEncodedQuery
    }

    /// Fails unless Satchel's tree holds exactly the pairs Foundation read, with the same values.
    private func checkDecoders(value: Value, items: [URLQueryItem], file: Corpus.File) throws {
        let pairs = try FormWriter().pairs(from: value)
        guard pairs.count == items.count else {
            throw BenchmarkFailure.guardFailed(
                "\(file.name): Satchel decoded \(pairs.count) pairs, URLComponents \(items.count)")
        }
        let satchelValues = pairs.map { String(decoding: $0.value ?? [], as: UTF8.self) }.sorted()
        let foundationValues = items.map { $0.value ?? "" }.sorted()
        guard satchelValues == foundationValues else {
            throw BenchmarkFailure.guardFailed("\(file.name): Satchel and URLComponents decoded different values")
        }
    }

    /// Fails unless each encoder's output reads back as what it encoded. Returns the size of
    /// Satchel's output.
    private func checkEncoders(value: Value, items: [URLQueryItem], file: Corpus.File) throws -> Int {
        // FormWriter sorts keys (AFNetworking), so the decoded tree has the same members in
        // another order: compare shapes, and the sorted output of the round trip.
        let satchelBody = try FormWriter().write(value)
        let reread = try FormReader().read(satchelBody)
        guard TreeShape(reread) == TreeShape(value), try FormWriter().write(reread) == satchelBody else {
            throw BenchmarkFailure.guardFailed(
                "\(file.name): FormWriter's output does not decode back as the same Value")
        }
        guard let foundationBody = Self.foundationQuery(items),
            URLComponents(string: "?" + foundationBody)?.queryItems == items
        else {
            throw BenchmarkFailure.guardFailed(
                "\(file.name): URLComponents' query does not read back as the same items")
        }
        return satchelBody.count
    }
}
