// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Testing

@Suite("SatchelError")
struct SatchelErrorTests {
    @Test func descriptionWithoutLocation() {
        #expect(SatchelError(.syntaxError, "unexpected ']'").description == "syntaxError: unexpected ']'")
    }

    @Test func descriptionWithOffset() {
        #expect(
            SatchelError(.syntaxError, "unexpected ']'", offset: 12).description
                == "syntaxError: unexpected ']' (at byte 12)")
    }

    @Test func descriptionWithLineAndColumn() {
        var error = SatchelError(.syntaxError, "unexpected ']'")
        let input = Array("[1, 2, 3, 4]]".utf8)
        input.withUnsafeBytes { error.locate(offset: 12, in: $0) }
        #expect(error.description == "syntaxError: unexpected ']' (at byte 12, line 1, column 13)")
    }

    @Test func descriptionWithKeyPathAndUnderlying() {
        let cause = SatchelError(.invalidEncoding, "bad UTF-8", offset: 2)
        let error = SatchelError(.typeMismatch, "expected a string", offset: 4, keyPath: "$.a[0]", underlying: cause)
        #expect(
            error.description
                == "typeMismatch: expected a string (at byte 4; key path $.a[0]): invalidEncoding: bad UTF-8 (at byte 2)"
        )
        #expect(
            SatchelError(.valueNotFound, "missing", keyPath: "$.b").description
                == "valueNotFound: missing (at key path $.b)")
    }

    @Test func codesAreStable() {
        let codes: [(SatchelError.Code, Int32, String)] = [
            (.invalidArgument, 1, "invalidArgument"), (.syntaxError, 2, "syntaxError"),
            (.truncatedInput, 3, "truncatedInput"), (.limitExceeded, 4, "limitExceeded"),
            (.invalidEncoding, 5, "invalidEncoding"), (.numberOutOfRange, 6, "numberOutOfRange"),
            (.unacceptableContentType, 7, "unacceptableContentType"),
            (.unacceptableStatusCode, 8, "unacceptableStatusCode"), (.typeMismatch, 9, "typeMismatch"),
            (.valueNotFound, 10, "valueNotFound"), (.unencodableValue, 11, "unencodableValue"),
            (.invalidMediaType, 12, "invalidMediaType"), (.io, 13, "io"), (.internal, 14, "internal"),
        ]
        for (code, raw, name) in codes {
            #expect(code.rawValue == raw)
            #expect(code.name == name)
            #expect(code.description == name)
            #expect(SatchelError.Code(rawValue: raw) == code)
        }
        #expect(Set(codes.map(\.0)).count == codes.count)
        #expect(SatchelError.Code(rawValue: 99).name == "code99")
    }

    @Test(arguments: [
        // "ab\ncd\n\nef": lines "ab", "cd", "", "ef".
        (0, 1, 1), (1, 1, 2), (2, 1, 3), (3, 2, 1), (4, 2, 2), (5, 2, 3),
        (6, 3, 1), (7, 4, 1), (8, 4, 2), (9, 4, 3),
    ])
    func locateCountsLineFeeds(offset: Int, line: Int, column: Int) {
        var error = SatchelError(.syntaxError, "x")
        Array("ab\ncd\n\nef".utf8).withUnsafeBytes { error.locate(offset: offset, in: $0) }
        #expect(error.offset == offset)
        #expect(error.line == line)
        #expect(error.column == column)
    }

    @Test func locateCountsBytesAndCRLF() {
        var error = SatchelError(.syntaxError, "x")
        Array("a\r\nb".utf8).withUnsafeBytes { error.locate(offset: 3, in: $0) }
        #expect((error.line, error.column) == (2, 1))
        Array("é!".utf8).withUnsafeBytes { error.locate(offset: 2, in: $0) }
        #expect((error.line, error.column) == (1, 3), "columns count bytes")
    }

    @Test func locateOutsideTheInputDoesNotTrap() {
        var error = SatchelError(.syntaxError, "x")
        Array("ab\nc".utf8).withUnsafeBytes { error.locate(offset: 10, in: $0) }
        #expect(error.offset == 10)
        #expect((error.line, error.column) == (2, 2), "located at the end")
        Array("ab".utf8).withUnsafeBytes { error.locate(offset: -1, in: $0) }
        #expect((error.line, error.column) == (1, 1))
        [UInt8]().withUnsafeBytes { error.locate(offset: 0, in: $0) }
        #expect((error.line, error.column) == (1, 1))
    }

    @Test func limitExceededFactory() {
        let error = SatchelError.limitExceeded("maxDepth", 512, "nesting", offset: 7, keyPath: "$[0]")
        #expect(error.code == .limitExceeded)
        #expect(error.limit == "maxDepth")
        #expect(error.offset == 7)
        #expect(error.keyPath == "$[0]")
        #expect(error.message.contains("Limits.maxDepth"))
        #expect(error.message.contains("512"))
    }

    @Test func validationFieldsStartEmpty() {
        let error = SatchelError(.io, "read failed")
        #expect(error.response == nil)
        #expect(error.body == nil)
        #expect(error.decodedValue == nil)
        #expect(error.underlying == nil)
        #expect(error.line == nil && error.column == nil)
    }
}

@Suite("Key paths")
struct KeyPathTests {
    @Test func rendering() {
        #expect(KeyPathComponent.render([]) == "$")
        #expect(KeyPathComponent.render([.key("users"), .index(3), .key("name")]) == "$.users[3].name")
        #expect(KeyPathComponent.render([.key("_x$9")]) == "$._x$9")
        #expect(KeyPathComponent.render([.key("b c")]) == #"$["b c"]"#)
        #expect(KeyPathComponent.render([.key("")]) == #"$[""]"#)
        #expect(KeyPathComponent.render([.key("1a")]) == #"$["1a"]"#)
        #expect(KeyPathComponent.render([.key("a.b")]) == #"$["a.b"]"#)
        #expect(KeyPathComponent.render([.key(#"a"b"#)]) == #"$["a\"b"]"#)
        #expect(KeyPathComponent.render([.key("a/b")]) == #"$["a/b"]"#)
        #expect(KeyPathComponent.render([.key("ключ"), .index(0)]) == #"$["ключ"][0]"#)
        #expect(KeyPathComponent.render([.index(0), .index(1)]) == "$[0][1]")
    }
}
