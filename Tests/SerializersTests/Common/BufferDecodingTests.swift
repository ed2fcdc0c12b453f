// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Serializers
import Testing

/// A body lent as raw memory (the C interface's buffer) decodes to what the same bytes in an
/// array decode to: read in place by JSON, property lists, XML documents and images, copied by
/// the formats that read arrays, sniffed the same way without a Content-Type, with the same
/// errors.
@Suite struct BufferDecodingTests {
    let dispatching = Registry.standard().dispatchingSerializer

    func both(
        _ body: [UInt8], _ type: MediaType?, limits: Limits = .default
    ) -> (array: Result<Value?, SatchelError>, buffer: Result<Value?, SatchelError>) {
        let array = Result { () throws(SatchelError) in
            try dispatching.decode(body, contentType: type, limits: limits)
        }
        let buffer = body.withUnsafeBytes { bytes in
            Result { () throws(SatchelError) in
                try dispatching.decode(buffer: bytes, contentType: type, limits: limits)
            }
        }
        return (array, buffer)
    }

    @Test(
        arguments: [
            (#"{"a":[1,2.5,"é"],"b":null}"#, "application/json"),
            ("  \n ", "application/json"),  // blank: no value
            (#"{"a":"#, "application/json"),  // truncated: the same error
            ("<a><b>1</b></a>", "application/xml"),
            ("<a><b>1</b>", "application/xml"),  // unclosed: the same error, line and column
            (#"<?xml version="1.0"?><!DOCTYPE a [<!ENTITY e SYSTEM "file:///etc/passwd">]><a>&e;</a>"#, "text/xml"),
            (#"<plist version="1.0"><array><integer>1</integer></array></plist>"#, "application/x-plist"),
            (#"<plist version="1.0"><array><integer>1</integ"#, "application/x-plist"),
            ("k=v&x=1", "application/x-www-form-urlencoded"),
            ("{}", "text/x-nobody-reads-this"),  // no member: the same error
        ] as [(String, String)])
    func aBufferDecodesAsTheArray(text: String, type: String) throws {
        try expectSame(Array(text.utf8), type)
    }

    func expectSame(_ body: [UInt8], _ type: String, limits: Limits = .default) throws {
        let (array, buffer) = both(body, try MediaType(parsing: type), limits: limits)
        switch (array, buffer) {
        case let (.success(a), .success(b)): #expect(a == b, "\(type)")
        case let (.failure(a), .failure(b)): #expect(a.code == b.code && a.message == b.message, "\(a) / \(b)")
        default: Issue.record("\(type): \(array) / \(buffer)")
        }
    }

    /// UTF-16 with a byte order mark is transcoded first, from the buffer as from the array.
    @Test func aWideJSONBodyIsTranscoded() throws {
        let body: [UInt8] = [0xFF, 0xFE] + Array(#"{"k":"v"}"#.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let (array, buffer) = both(body, .json)
        #expect(try buffer.get() == ["k": "v"])
        #expect(try array.get() == (try buffer.get()))
    }

    /// Without a Content-Type the format is sniffed from the buffer's first bytes; an empty
    /// buffer is no value.
    @Test func aBufferWithoutAContentTypeIsSniffed() throws {
        let plist = Array(
            #"<?xml version="1.0"?><plist version="1.0"><dict><key>k</key><integer>1</integer></dict></plist>"#.utf8)
        let (array, buffer) = both(plist, nil)
        #expect(try buffer.get() == ["k": 1])
        #expect(try array.get() == (try buffer.get()))
        #expect(try both([], nil).buffer.get() == nil)
    }

    /// Binary property lists and images are read from the buffer in place; a cut one fails the
    /// same way.
    @Test func binaryFormatsDecodeFromTheBuffer() throws {
        let plist = try PropertyListWriter(format: .binary).write(["k": [1, 2.5, "v"], "d": .bytes([0, 1, 2])])
        try expectSame(plist, "application/x-plist")
        try expectSame(Array(plist.prefix(plist.count - 5)), "application/x-plist")
        try ImageSamples.requireGenerated()
        for (format, type) in [("png", "image/png"), ("jpeg", "image/jpeg")] {
            let sample = try #require(ImageSamples.cases(format).first, "no generated \(format) image")
            let image = try ImageSamples.load(sample.file)
            try expectSame(image, type)
            try expectSame(Array(image.prefix(image.count / 2)), type)
            try expectSame(Array(image.prefix(5)), type)
        }
    }

    /// A body over the limits fails from the buffer as from the array, for every format that
    /// reads the buffer in place: over `maxBodyBytes`, and nested past `maxDepth`.
    @Test func oversizedAndDeepBuffersFailAlike() throws {
        var small = Limits.default
        small.maxBodyBytes = 64
        let plist = try PropertyListWriter(format: .binary).write(.array(Array(repeating: "some text", count: 20)))
        let deep = Array(String(repeating: "<a>", count: 300).utf8) + Array(String(repeating: "</a>", count: 300).utf8)
        for (body, type) in [
            (plist, "application/x-plist"), (Array(String(repeating: "<a>x</a>", count: 20).utf8), "application/xml"),
            (Array(String(repeating: "[", count: 100).utf8), "application/json"),
        ] {
            try expectSame(body, type, limits: small)
            #expect(Self.code(both(body, try MediaType(parsing: type), limits: small).buffer) == .limitExceeded)
        }
        var shallow = Limits.default
        shallow.maxDepth = 16
        try expectSame(deep, "application/xml", limits: shallow)
        #expect(
            Self.code(both(deep, try MediaType(parsing: "application/xml"), limits: shallow).buffer) == .limitExceeded)
    }

    static func code(_ result: Result<Value?, SatchelError>) -> SatchelError.Code? {
        guard case let .failure(error) = result else { return nil }
        return error.code
    }
}
