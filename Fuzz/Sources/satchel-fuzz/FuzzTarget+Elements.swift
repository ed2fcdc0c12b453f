// SPDX-License-Identifier: Apache-2.0
import Satchel

extension FuzzTarget {
    /// `JSONElementReader`: the input's first line is a JSON Pointer, the rest a document, fed
    /// whole and in chunks. The elements, the error's code and the rest agree; and where the
    /// whole-document reader reads the document and finds an array at the pointer, the elements
    /// are that array's.
    static let jsonElements = FuzzTarget(
        name: "json-elements", summary: "JSONElementReader whole and chunked, against the whole-document reader",
        run: checkJSONElements)

    private static func checkJSONElements(_ input: FuzzInput) {
        let (line, document) = input.splitFirstLine()
        guard let pointer = try? JSONPointer(line) else { return }
        let whole = elements(JSONElementReader(pointer: pointer, limits: FuzzLimits.records), [document[...]])
        let chunked = elements(
            JSONElementReader(pointer: pointer, limits: FuzzLimits.records), input.chunks(of: document))
        agree("json-elements", whole, chunked)
        guard whole.error?.code != .limitExceeded else { return }
        let read: Result<Value, SatchelError> = FuzzCheck.outcome("JSONReader.read") {
            try JSONReader(limits: FuzzLimits.records).read(document)
        }
        guard case .success(let root) = read, case .array(let expected)? = value(of: root, at: pointer.tokens)
        else { return }
        guard whole.error == nil, whole.records.count == expected.count,
            zip(whole.records, expected).allSatisfy({ FuzzCheck.same($0, $1) })
        else {
            FuzzCheck.fail(
                "json-elements: \(whole.records.count) elements and \(String(describing: whole.error?.code)) where the whole document has \(expected.count)"
            )
        }
    }

    /// `XMLElementReader`: the input's first line is an element path, the rest a document, fed
    /// whole and in chunks; the elements agree, and whether it fails (not always with the same
    /// code: libxml2's push parser can find an error only at the end when fed in chunks, which
    /// is truncation then, as in the xml-document and xml-events targets).
    static let xmlElements = FuzzTarget(name: "xml-elements", summary: "XMLElementReader whole and chunked") {
        input in
        let (path, document) = input.splitFirstLine()
        let make = { try? XMLElementReader(path: path, namespaces: ["a": "urn:a"], limits: FuzzLimits.records) }
        guard let first = make(), let second = make() else { return }
        agree(
            "xml-elements", elements(first, [document[...]]), elements(second, input.chunks(of: document)),
            sameCode: false)
    }

    private typealias Elements = (records: [Value], error: SatchelError?, rest: Value?)

    private static func elements(_ reader: any ElementRecordReader, _ chunks: [ArraySlice<UInt8>]) -> Elements {
        var records: [Value] = []
        let outcome = FuzzCheck.outcome("ElementRecordReader") {
            for chunk in chunks { try reader.feed(Array(chunk)) { records.append($0) } }
            try reader.finish { records.append($0) }
        }
        if case .failure(let error) = outcome { return (records, error, nil) }
        return (records, nil, reader.rest)
    }

    private static func agree(_ name: String, _ whole: Elements, _ chunked: Elements, sameCode: Bool = true) {
        let codesAgree =
            sameCode ? whole.error?.code == chunked.error?.code : (whole.error == nil) == (chunked.error == nil)
        guard whole.records.count == chunked.records.count,
            zip(whole.records, chunked.records).allSatisfy({ FuzzCheck.same($0, $1) }),
            codesAgree, FuzzCheck.same(whole.rest, chunked.rest)
        else {
            FuzzCheck.fail(
                "\(name): chunked feeding gives \(chunked.records.count) elements and \(String(describing: chunked.error?.code)), whole \(whole.records.count) and \(String(describing: whole.error?.code))"
            )
        }
    }

    /// The value at `tokens` (RFC 6901) in `root`, if any.
    private static func value(of root: Value, at tokens: [String]) -> Value? {
        var current = root
        for token in tokens {
            switch current {
            case .object(let object):
                guard let member = object[token] else { return nil }
                current = member
            case .array(let array):
                guard let index = Int(token), String(index) == token, array.indices.contains(index) else { return nil }
                current = array[index]
            default:
                return nil
            }
        }
        return current
    }
}
