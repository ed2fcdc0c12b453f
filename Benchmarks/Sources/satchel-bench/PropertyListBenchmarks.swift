// SPDX-License-Identifier: Apache-2.0
import CPlistBaseline
import Foundation
import Satchel

/// Property lists, XML and binary: Satchel's `PropertyListReader` and `PropertyListWriter`
/// against Foundation's `PropertyListSerialization` and libplist 2.2's raw C parse and writers,
/// on the ~1 MB catalogue that `scripts/corpus plist` writes with Python's plistlib.
///
/// libplist builds its own `plist_t` tree, not a `Value`: its times are a lower bound for an
/// engine built on it (the walk converting `plist_t` to `Value` would come on top).
struct PropertyListBenchmarks {
    /// The inputs.
    let corpus: Corpus
    /// The timer.
    let sampler: Sampler

    /// One corpus file and its format.
    struct Input {
        let file: Corpus.File
        let format: PropertyListFormat
        var isBinary: Int32 { format == .binary ? 1 : 0 }
    }

    /// Guards, then times reading and writing both formats.
    func run() throws -> [ComparisonTable] {
        let inputs = [
            Input(file: try Self.read(corpus, "catalog.plist"), format: .xml),
            Input(file: try Self.read(corpus, "catalog.bplist"), format: .binary),
        ]
        var readFoundation = ComparisonTable(
            title: "Plist read: Satchel vs Foundation",
            satchelCall: "PropertyListReader().read(bytes) (format sniffed)", peerName: "Foundation",
            peerCall: "PropertyListSerialization.propertyList(from: data, options: [], format: nil)",
            sizeNote: "the input", target: 5)
        var writeFoundation = ComparisonTable(
            title: "Plist write: Satchel vs Foundation",
            satchelCall: "PropertyListWriter(format: f).write(value)", peerName: "Foundation",
            peerCall: "PropertyListSerialization.data(fromPropertyList: tree, format: f, options: 0)",
            sizeNote: "Satchel's output", target: 5)
        var readLibplist = ComparisonTable(
            title: "Plist read: Satchel vs libplist 2.2 (raw C tree, no Value)",
            satchelCall: "PropertyListReader().read(bytes)", peerName: "libplist",
            peerCall: "plist_from_xml / plist_from_bin, then plist_free", sizeNote: "the input")
        var writeLibplist = ComparisonTable(
            title: "Plist write: Satchel vs libplist 2.2 (raw C tree)",
            satchelCall: "PropertyListWriter(format: f).write(value)", peerName: "libplist",
            peerCall: "plist_to_xml / plist_to_bin, then free the output", sizeNote: "Satchel's output")

        for input in inputs {
            let bytes = input.file.bytes
            let data = input.file.data
            let value = try PropertyListReader().read(bytes) ?? .null
            let foundationTree = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
            let tree = bytes.withUnsafeBytes { plist_baseline_parse($0.baseAddress, UInt32($0.count), input.isBinary) }
            defer { plist_baseline_free(tree) }
            let satchelOutput = try checkReaders(input, value: value, foundationTree: foundationTree, tree: tree)
            let foundationFormat: PropertyListSerialization.PropertyListFormat = input.format == .xml ? .xml : .binary
            let writer = PropertyListWriter(format: input.format)
            let isBinary = input.isBinary

            Progress.note("plist read \(input.file.name)")
            let reads = try sampler.measure([
                { try PropertyListReader().read(bytes) as Any },
                { try PropertyListSerialization.propertyList(from: data, options: [], format: nil) },
                { bytes.withUnsafeBytes { plist_baseline_read($0.baseAddress, UInt32($0.count), isBinary) } },
            ])
            Progress.note("plist write \(input.file.name)")
            let writes = try sampler.measure([
                { try writer.write(value) },
                {
                    try PropertyListSerialization.data(
                        fromPropertyList: foundationTree, format: foundationFormat, options: 0)
                },
                { plist_baseline_write(tree, isBinary) },
            ])
            let name = input.file.name
            readFoundation.rows.append(Comparison(input: name, bytes: bytes.count, satchel: reads[0], peer: reads[1]))
            readLibplist.rows.append(Comparison(input: name, bytes: bytes.count, satchel: reads[0], peer: reads[2]))
            writeFoundation.rows.append(
                Comparison(input: name, bytes: satchelOutput, satchel: writes[0], peer: writes[1]))
            writeLibplist.rows.append(
                Comparison(input: name, bytes: satchelOutput, satchel: writes[0], peer: writes[2]))
        }
        return [readFoundation, writeFoundation, readLibplist, writeLibplist]
    }

    static func read(_ corpus: Corpus, _ name: String) throws(BenchmarkFailure) -> Corpus.File {
        let url = corpus.directory.appendingPathComponent("plist/\(name)")
        guard let data = try? Data(contentsOf: url) else {
            throw .corpus("cannot read \(url.path) (run scripts/corpus plist first)")
        }
        return Corpus.File(name: name, bytes: [UInt8](data), data: data)
    }
}
