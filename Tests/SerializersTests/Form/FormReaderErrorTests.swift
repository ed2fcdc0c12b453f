// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Serializers
import Testing

@Suite("Form decoder errors")
struct FormReaderErrorTests {
    private func failure(
        _ text: String, limits: Limits = .default, options: FormReader.Options = FormReader.Options()
    ) -> SatchelError? {
        #expect(throws: SatchelError.self) {
            try FormReader(options: options, limits: limits).read(text)
        }
    }

    // MARK: - Percent escapes

    @Test(
        "a malformed escape is a syntax error at its '%'",
        arguments: [
            ("a=%zz", 2, "%zz"),
            ("a=%", 2, "%"),
            ("a=%4", 2, "%4"),
            ("a=%4&b=1", 2, "%4"),
            ("a=%&b=1", 2, "%"),
            ("a=1&b=x%g1", 7, "%g1"),
            ("a=%4z", 2, "%4z"),
            ("%zz=1", 0, "%zz"),
            ("a%5=1", 1, "%5"),
            ("ok=%41%42%", 9, "%"),
        ])
    func badEscape(text: String, offset: Int, escape: String) {
        let error = failure(text)
        #expect(error?.code == .syntaxError)
        #expect(error?.offset == offset)
        #expect(error?.message.contains("\"\(escape)\"") == true, "message: \(error?.message ?? "")")
    }

    @Test(
        "decoded bytes that are not UTF-8 are an encoding error where the bad sequence starts",
        arguments: [
            ("a=%FF", 2),
            ("a=ok%C3%28", 4),
            ("a=%C0%AF", 2),
            ("a=%ED%A0%80", 2),
            ("a=%E6%97", 2),
            ("%FF=1", 0),
            ("key=value&x%C3=1", 11),
            ("a=%C3%A9%C3", 8),
            ("a=é+%80", 5),
        ])
    func invalidUTF8(text: String, offset: Int) {
        let error = failure(text)
        #expect(error?.code == .invalidEncoding)
        #expect(error?.offset == offset)
    }

    @Test("the encoding error names the offending byte")
    func invalidUTF8Byte() {
        let error = failure("a=ok%C3%28")
        #expect(error?.message.contains("0xC3") == true, "message: \(error?.message ?? "")")
        #expect(error?.message.contains("value") == true)
    }

    @Test("raw bytes that are not UTF-8 are an encoding error")
    func rawInvalidUTF8() {
        let error = #expect(throws: SatchelError.self) {
            try FormReader().read([UInt8(ascii: "a"), UInt8(ascii: "="), UInt8(ascii: "b"), 0xFE])
        }
        #expect(error?.code == .invalidEncoding)
        #expect(error?.offset == 3)
    }

    // MARK: - Keys

    @Test(
        "malformed keys are syntax errors at the offending byte, naming the key",
        arguments: [
            ("a[=1", 1, "a["),
            ("x=1&a]b[=2", 5, "a]b["),
            ("[a]=1", 0, "[a]"),
            ("x=1&[]=2", 4, "[]"),
            ("a[b]c=1", 4, "a[b]c"),
            ("a[b]]=1", 4, "a[b]]"),
            ("a[b[c]]=1", 3, "a[b[c]]"),
            ("a[b][c", 4, "a[b][c"),
            ("x=1&a%5Bb%5Dc=1", 12, "a[b]c"),
            ("x=1&a%5B=1", 5, "a["),
        ])
    func malformedKeys(text: String, offset: Int, key: String) {
        let error = failure(text)
        #expect(error?.code == .syntaxError)
        #expect(error?.offset == offset)
        #expect(error?.message.contains("\"\(key)\"") == true, "message: \(error?.message ?? "")")
    }

    @Test(
        "conflicting keys are a type mismatch naming the key path",
        arguments: [
            ("a=1&a[b]=2", 4, "$.a"),
            ("a[b]=1&a=2", 7, "$.a"),
            ("a=1&a[]=2", 4, "$.a"),
            ("a[]=1&a[b]=2", 6, "$.a"),
            ("a[b]=1&a[]=2", 7, "$.a"),
            ("a[]=1&a=2", 6, "$.a"),
            ("a[b]=1&a[b][c]=2", 7, "$.a.b"),
            ("a[b][c]=1&a[b]=2", 10, "$.a.b"),
            ("a[][b]=1&a[][b][c]=2", 9, "$.a[0].b"),
            ("x[y z]=1&x[y z][0]=2", 9, #"$.x["y z"]"#),
        ])
    func conflicts(text: String, offset: Int, keyPath: String) {
        let error = failure(text)
        #expect(error?.code == .typeMismatch)
        #expect(error?.offset == offset)
        #expect(error?.keyPath == keyPath)
    }

    @Test("a scalar onto an object is a conflict even when collecting duplicates")
    func conflictWhileCollecting() {
        let error = failure("a[b]=1&a=2", options: FormReader.Options(duplicateKeys: .collectIntoArray))
        #expect(error?.code == .typeMismatch)
        #expect(error?.keyPath == "$.a")
    }

    // MARK: - Limits

    @Test("a million pairs stop at pair maxPairs + 1")
    func millionPairs() {
        let text = String(repeating: "a=1&", count: 1_000_000)
        let error = failure(text)
        #expect(error?.code == .limitExceeded)
        #expect(error?.limit == "maxPairs")
        #expect(error?.offset == Limits.default.maxPairs * 4)
        #expect(error?.message.contains("\(Limits.default.maxPairs + 1)") == true)
    }

    @Test("maxPairs counts pairs, not empty segments")
    func maxPairs() throws {
        let limits = Limits(maxPairs: 3)
        #expect(try FormReader(limits: limits).read("a&&b&c&") == ["a": nil, "b": nil, "c": nil])
        let error = failure("a&&b&c&d", limits: limits)
        #expect(error?.code == .limitExceeded)
        #expect(error?.limit == "maxPairs")
        #expect(error?.offset == 7)
    }

    @Test("keys nested 1000 deep exceed maxDepth at the first bracket too many")
    func deepKeys() {
        let text = "a" + String(repeating: "[b]", count: 1000) + "=1"
        let error = failure(text)
        #expect(error?.code == .limitExceeded)
        #expect(error?.limit == "maxDepth")
        #expect(error?.offset == 1 + Limits.default.maxDepth * 3)
        #expect(error?.message.contains("maxDepth") == true)
    }

    @Test("escaped deep keys report the offset in the raw input")
    func deepEscapedKeys() {
        let text = "x=1&a" + String(repeating: "%5Bb%5D", count: 1000) + "=1"
        let error = failure(text)
        #expect(error?.limit == "maxDepth")
        #expect(error?.offset == 5 + Limits.default.maxDepth * 7)
    }

    @Test("keys nested exactly maxDepth deep are fine")
    func depthAtLimit() throws {
        let limits = Limits(maxDepth: 2)
        #expect(try FormReader(limits: limits).read("a[b][]=1") == ["a": ["b": ["1"]]])
        let error = failure("a[b][c][d]=1", limits: limits)
        #expect(error?.code == .limitExceeded)
        #expect(error?.limit == "maxDepth")
        #expect(error?.offset == 7)
    }

    @Test("maxDepth does not apply to literal keys")
    func depthLiteral() throws {
        let options = FormReader.Options(parsesNestedKeys: false)
        let key = "a" + String(repeating: "[b]", count: 10)
        #expect(try FormReader(options: options, limits: Limits(maxDepth: 2)).read("\(key)=1") == .object([key: "1"]))
    }

    @Test(
        "maxStringBytes bounds decoded keys and values",
        arguments: [
            ("abcde=1", 0),
            ("a=12345", 2),
            ("x=1&a=%41%41%41%41%41", 6),
            ("x=1&abcd=1&%41%41%41%41%41", 11),
        ])
    func maxStringBytes(text: String, offset: Int) {
        let error = failure(text, limits: Limits(maxStringBytes: 4))
        #expect(error?.code == .limitExceeded)
        #expect(error?.limit == "maxStringBytes")
        #expect(error?.offset == offset)
    }

    @Test("keys and values of exactly maxStringBytes are fine")
    func stringsAtLimit() throws {
        let decoder = FormReader(limits: Limits(maxStringBytes: 4))
        #expect(try decoder.read("abcd=%41%42%43%44&é=éé") == ["abcd": "ABCD", "é": "éé"])
        let error = #expect(throws: SatchelError.self) { try decoder.read("a=ééé") }
        #expect(error?.limit == "maxStringBytes")
    }

    @Test("maxBodyBytes bounds the input")
    func maxBodyBytes() throws {
        let limits = Limits(maxBodyBytes: 10)
        #expect(try FormReader(limits: limits).read("abc=123456") == ["abc": "123456"])
        let error = failure("abc=1234567", limits: limits)
        #expect(error?.code == .limitExceeded)
        #expect(error?.limit == "maxBodyBytes")
        #expect(error?.message.contains("11") == true)
        #expect(error?.offset == 10)
        let bytes = #expect(throws: SatchelError.self) {
            try FormReader(limits: limits).read(Array("abc=1234567".utf8))
        }
        #expect(bytes?.limit == "maxBodyBytes")
        #expect(bytes?.offset == 10)
    }
}
