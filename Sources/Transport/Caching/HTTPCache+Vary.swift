// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

extension HTTPCache {
    /// Which request fields a URL's responses vary on (RFC 9111 §4.1), and a generation that
    /// changes whenever the URL's record is made anew, so that variants stored under an earlier
    /// record (before an invalidation, or under other `Vary` fields) are never reached again.
    ///
    /// Each variant is an entry of its own, keyed by ``variantKey(_:_:request:)``: the primary key,
    /// the generation, and the request's value of each field (absent marked apart from empty).
    struct VaryRecord: Hashable, Sendable {
        /// Field names, lowercased, sorted, without repeats.
        var names: [String]
        var generation: String

        static let magic = "SATCHV01"

        /// The record of a response whose `Vary` fields are `fields`; `nil` when they name none.
        /// - Parameter generation: a fresh one for a new record.
        init?(varying fields: [String], generation: String) {
            let names = Set(fields.map { $0.trimmingSpacesAndTabs.lowercased() }.filter { !$0.isEmpty }).sorted()
            guard !names.isEmpty else { return nil }
            self.names = names
            self.generation = generation
        }

        /// The file form: the magic, the primary key (checked when read back: two URLs never share
        /// a record even if their digests met), the generation, the names; one per line.
        func encoded(primary: String) -> [UInt8] {
            Array(([Self.magic, primary, generation] + names).joined(separator: "\n").utf8)
        }

        /// Reads what ``encoded(primary:)`` wrote for `primary`; `nil` for anything else.
        init?(encoded bytes: [UInt8], primary: String) {
            guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard lines.count >= 4, lines[0] == Self.magic, lines[1] == primary, !lines[2].isEmpty else { return nil }
            self.init(varying: Array(lines[3...]), generation: lines[2])
        }
    }

    /// The key of the variant of `primary` that `request` selects under `record`; `primary`
    /// itself when the URL does not vary.
    static func variantKey(_ primary: String, _ record: VaryRecord?, request: HTTPFields) -> String {
        guard let record else { return primary }
        let values = record.names.map { name in
            // A field value never holds NUL: it marks a field the request does not have.
            name + ":" + (value(of: name, in: request) ?? "\u{0}")
        }
        return ([primary, record.generation] + values).joined(separator: "\n")
    }

    /// The URL's current record: in the directory when there is one (other processes may change
    /// it), else in memory.
    func varyRecord(for primary: String) -> VaryRecord? {
        if let disk { return disk.readVary(primary) }
        return varyRecords.withLock { $0[primary] }
    }

    /// The record a response varying on `fields` is stored under: the URL's current one when it
    /// names the same fields, else a new one (with a new generation) put in its place; `nil`,
    /// and the URL's record removed, when the response does not vary.
    func varyRecordForStoring(_ primary: String, varying fields: [String]) -> VaryRecord? {
        let fresh = VaryRecord(varying: fields, generation: Self.newGeneration())
        let current = varyRecord(for: primary)
        if let current, current.names == fresh?.names { return current }
        guard current != nil || fresh != nil else { return nil }
        varyRecords.withLock { $0[primary] = fresh }
        disk?.writeVary(fresh, for: primary)
        return fresh
    }

    /// Forgets the URL's record, so that none of its variants is reached again.
    func removeVaryRecord(for primary: String) {
        varyRecords.withLock { $0[primary] = nil }
        disk?.writeVary(nil, for: primary)
    }

    private static func newGeneration() -> String {
        String(UInt64.random(in: .min ... .max), radix: 36)
    }
}
