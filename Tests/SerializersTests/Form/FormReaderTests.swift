// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Serializers
import Testing

@Suite("Form decoder")
struct FormReaderTests {
    private func decode(_ text: String, _ options: FormReader.Options = FormReader.Options()) throws -> Value {
        try FormReader(options: options).read(text)
    }

    // MARK: - Pairs

    @Test("plain pairs keep the order they arrive in")
    func plainPairs() throws {
        let value = try decode("b=2&a=1&c=3")
        #expect(value == ["b": "2", "a": "1", "c": "3"])
        #expect(value.objectValue?.keys.elementsEqual(["b", "a", "c"]) == true)
    }

    @Test("empty input is an empty object")
    func emptyInput() throws {
        #expect(try decode("") == .object([:]))
        #expect(try FormReader().read([UInt8]()) == .object([:]))
    }

    @Test("a bare key is null; an empty value is the empty string")
    func bareKeys() throws {
        #expect(try decode("a&b=&c") == ["a": nil, "b": "", "c": nil])
        #expect(try decode("a[]&a[]=") == ["a": [nil, ""]])
    }

    @Test("values are always strings")
    func stringsOnly() throws {
        #expect(try decode("n=1&t=true&d=1.5") == ["n": "1", "t": "true", "d": "1.5"])
    }

    @Test("a pair splits at its first '='")
    func firstEquals() throws {
        #expect(try decode("a=b=c&d==") == ["a": "b=c", "d": "="])
    }

    @Test("empty segments are skipped", arguments: ["a=1&&b=2", "&a=1&b=2&", "&&&a=1&&&b=2&&&"])
    func emptySegments(text: String) throws {
        #expect(try decode(text) == ["a": "1", "b": "2"])
    }

    @Test("an empty key is kept")
    func emptyKey() throws {
        #expect(try decode("=x&a=1") == ["": "x", "a": "1"])
    }

    @Test("percent escapes and '+' decode in keys and values")
    func unescaping() throws {
        #expect(try decode("a+b=c+d") == ["a b": "c d"])
        #expect(try decode("%2B=%20%26%3D%25") == ["+": " &=%"])
        #expect(try decode("%c3%a9=%C3%A9") == ["é": "é"])
        #expect(try decode("%F0%9F%98%80=%E6%97%A5%E6%9C%AC") == ["😀": "日本"])
    }

    @Test("raw UTF-8 bytes pass through")
    func rawUTF8() throws {
        #expect(try FormReader().read(Array("é=😀".utf8)) == ["é": "😀"])
    }

    @Test("String and byte input decode alike")
    func stringAndBytes() throws {
        let text = "a[b]=1&c[]=2&c[]=3"
        #expect(try FormReader().read(text) == FormReader().read(Array(text.utf8)))
    }

    // MARK: - Nesting

    @Test("bracketed keys nest objects")
    func nestedObjects() throws {
        #expect(try decode("a[b][c]=1&a[b][d]=2&a[e]=3") == ["a": ["b": ["c": "1", "d": "2"], "e": "3"]])
    }

    @Test("escaped brackets nest too (AFNetworking escapes them)")
    func escapedBrackets() throws {
        #expect(try decode("a%5Bb%5D%5B%5D=1&a%5bb%5d%5b%5d=2") == ["a": ["b": ["1", "2"]]])
    }

    @Test("'[]' appends")
    func appends() throws {
        #expect(try decode("a[]=x&a[]=y&a[]=x") == ["a": ["x", "y", "x"]])
        #expect(try decode("a[b][]=1&a[b][]=2") == ["a": ["b": ["1", "2"]]])
    }

    @Test("'[][key]' fills the last object until it already has the key (Rack)")
    func arrayOfObjects() throws {
        #expect(try decode("a[][b]=1&a[][c]=2") == ["a": [["b": "1", "c": "2"]]])
        #expect(try decode("a[][b]=1&a[][c]=2&a[][b]=3") == ["a": [["b": "1", "c": "2"], ["b": "3"]]])
        #expect(
            try decode("a[][x][y]=1&a[][x][z]=2&a[][x][y]=3")
                == ["a": [["x": ["y": "1", "z": "2"]], ["x": ["y": "3"]]]])
    }

    @Test("arrays inside objects inside arrays accumulate in the last object (Rack)")
    func arrayInObjectInArray() throws {
        #expect(try decode("a[][b][]=1&a[][b][]=2") == ["a": [["b": ["1", "2"]]]])
    }

    @Test("'[][]' starts a new inner array each time (Rack)")
    func nestedAppends() throws {
        #expect(try decode("a[][]=1&a[][]=2") == ["a": [["1"], ["2"]]])
    }

    @Test("a bracketed key with text in the brackets may contain spaces and symbols")
    func bracketContents() throws {
        #expect(try decode("a[b%20c][d.e]=1&a[%C3%A9]=2") == ["a": ["b c": ["d.e": "1"], "é": "2"]])
    }

    // MARK: - Indexed keys

    @Test("keys '0'..'n-1' become an array in index order")
    func indexedKeys() throws {
        #expect(try decode("a[0]=x&a[1]=y") == ["a": ["x", "y"]])
        #expect(try decode("a[1]=y&a[0]=x&a[2]=z") == ["a": ["x", "y", "z"]])
        #expect(try decode("m[0][0]=1&m[0][1]=2&m[1][0]=3") == ["m": [["1", "2"], ["3"]]])
        #expect(try decode("a[0][b]=1&a[1][b]=2") == ["a": [["b": "1"], ["b": "2"]]])
    }

    @Test(
        "keys that are not exactly '0'..'n-1' stay an object",
        arguments: [
            ("a[0]=x&a[2]=y", ["a": ["0": "x", "2": "y"]]),
            ("a[1]=x", ["a": ["1": "x"]]),
            ("a[00]=x", ["a": ["00": "x"]]),
            ("a[0]=x&a[01]=y", ["a": ["0": "x", "01": "y"]]),
            ("a[0]=x&a[b]=y", ["a": ["0": "x", "b": "y"]]),
            ("a[%2B0]=x", ["a": ["+0": "x"]]),
            ("a[+0]=x", ["a": [" 0": "x"]]),
            ("a[-1]=x&a[0]=y", ["a": ["-1": "x", "0": "y"]]),
        ] as [(String, Value)])
    func notIndexed(text: String, expected: Value) throws {
        #expect(try decode(text) == expected)
    }

    @Test("the top-level object stays an object")
    func topLevelIndexed() throws {
        #expect(try decode("0=a&1=b") == ["0": "a", "1": "b"])
    }

    @Test("indexedKeysAsArrays false keeps objects")
    func indexedKeysOff() throws {
        var options = FormReader.Options()
        options.indexedKeysAsArrays = false
        #expect(try decode("a[0]=x&a[1]=y", options) == ["a": ["0": "x", "1": "y"]])
    }

    // MARK: - Duplicates

    @Test("the last duplicate wins by default")
    func lastWins() throws {
        #expect(try decode("a=1&b=2&a=3") == ["a": "3", "b": "2"])
        #expect(try decode("a[b]=1&a[b]=2") == ["a": ["b": "2"]])
        #expect(try decode("a=1&a") == ["a": nil])
    }

    @Test("collectIntoArray gathers duplicates in order")
    func collect() throws {
        var options = FormReader.Options()
        options.duplicateKeys = .collectIntoArray
        #expect(try decode("a=1&b=2&a=3&a=4", options) == ["a": ["1", "3", "4"], "b": "2"])
        #expect(try decode("a[b]=1&a[b]=2", options) == ["a": ["b": ["1", "2"]]])
        #expect(try decode("a[]=1&a=2", options) == ["a": ["1", "2"]])
        #expect(try decode("a=1", options) == ["a": "1"])
        #expect(try decode("a&a=", options) == ["a": [nil, ""]])
    }

    // MARK: - Literal keys

    @Test("parsesNestedKeys false keeps keys literally, brackets and all")
    func literalKeys() throws {
        var options = FormReader.Options()
        options.parsesNestedKeys = false
        #expect(try decode("a[b]=1&a[]=2&a[=3&]x[=4", options) == ["a[b]": "1", "a[]": "2", "a[": "3", "]x[": "4"])
        options.duplicateKeys = .collectIntoArray
        #expect(try decode("a[]=1&a[]=2", options) == ["a[]": ["1", "2"]])
    }
}
