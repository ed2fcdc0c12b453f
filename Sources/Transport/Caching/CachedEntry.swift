// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

/// What the cache keeps of a response besides its body (RFC 9111 §3): the status and header
/// fields as received, when the request was sent and the response arrived (for the age
/// arithmetic of §4.2.3), and the request's values of the fields its `Vary` names (§4.1).
struct CachedEntry: Hashable, Sendable {
    /// `METHOD URL`, the entry's primary key (§2).
    var key: String
    var status: Int
    var reasonPhrase: String
    var headerFields: HTTPFields
    /// Seconds since 1970 when the request was sent and the response head arrived.
    var requestTime: Int64
    var responseTime: Int64
    /// The request's value (fields combined, `nil` when absent) of each field `Vary` names, lowercased.
    var varied: [String: String?]
    /// The body's length and checksum (``CacheChecksum``), checked before the body is served.
    var bodyLength: Int64
    var bodyChecksum: UInt64

    /// The response as the cache serves it: the stored status and fields with an `Age` field
    /// (§4: "the cache MUST generate an Age header field") that says `age` seconds.
    func response(age: Int64) -> HTTPResponse {
        var fields = headerFields
        fields[.age] = String(max(0, age))
        return HTTPResponse(
            status: HTTPResponse.Status(code: status, reasonPhrase: reasonPhrase), headerFields: fields)
    }
}

extension CachedEntry {
    /// Length-prefixed fields, read back by ``init(encoded:)``; the layout's version is the file's
    /// (``HTTPCache/DiskFormat``).
    var encoded: [UInt8] {
        var strings: [String] = [key, String(status), reasonPhrase, String(requestTime), String(responseTime)]
        strings.append(String(headerFields.count))
        for field in headerFields { strings += [field.name.rawName, field.value] }
        strings.append(String(varied.count))
        for (name, value) in varied.sorted(by: { $0.key < $1.key }) {
            strings += [name, value == nil ? "0" : "1", value ?? ""]
        }
        var bytes: [UInt8] = []
        for string in strings {
            let utf8 = Array(string.utf8)
            bytes += withUnsafeBytes(of: UInt32(utf8.count).littleEndian, Array.init)
            bytes += utf8
        }
        return bytes
    }

    /// Reads what ``encoded`` wrote; `nil` for anything else.
    init?(encoded bytes: [UInt8], bodyLength: Int64, bodyChecksum: UInt64) {
        var offset = 0
        func next() -> String? {
            guard offset + 4 <= bytes.count else { return nil }
            let length = bytes[offset..<offset + 4].reversed().reduce(0) { $0 << 8 | Int($1) }
            offset += 4
            guard length <= bytes.count - offset else { return nil }
            defer { offset += length }
            return String(validating: bytes[offset..<offset + length], as: UTF8.self)
        }
        guard let key = next(), let status = next().flatMap({ Int($0) }), (100...999).contains(status),
            let reason = next(), let requestTime = next().flatMap({ Int64($0) }),
            let responseTime = next().flatMap({ Int64($0) }), let fieldCount = next().flatMap({ Int($0) }),
            (0...10_000).contains(fieldCount)
        else { return nil }
        var fields = HTTPFields()
        for _ in 0..<fieldCount {
            guard let name = next().flatMap({ HTTPField.Name($0) }), let value = next() else { return nil }
            fields.append(HTTPField(name: name, value: value))
        }
        guard let variedCount = next().flatMap({ Int($0) }), (0...1_000).contains(variedCount) else { return nil }
        var varied: [String: String?] = [:]
        for _ in 0..<variedCount {
            guard let name = next(), let present = next(), let value = next() else { return nil }
            varied.updateValue(present == "1" ? value : nil, forKey: name)
        }
        guard offset == bytes.count else { return nil }
        self.init(
            key: key, status: status, reasonPhrase: reason, headerFields: fields, requestTime: requestTime,
            responseTime: responseTime, varied: varied, bodyLength: bodyLength, bodyChecksum: bodyChecksum)
    }
}
