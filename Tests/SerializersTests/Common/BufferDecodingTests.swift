// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Serializers
import Testing

/// A body lent as raw memory (the C interface's buffer) decodes to what the same bytes in an
/// array decode to: read in place by JSON, copied by the formats that read arrays, sniffed the
/// same way without a Content-Type, with the same errors.
@Suite struct BufferDecodingTests {
    let dispatching = Registry.standard().dispatchingSerializer

    func both(
        _ body: [UInt8], _ type: MediaType?
    ) -> (array: Result<Value?, SatchelError>, buffer: Result<Value?, SatchelError>) {
        let array = Result { () throws(SatchelError) in
            try dispatching.decode(body, contentType: type, limits: .default)
        }
        let buffer = body.withUnsafeBytes { bytes in
            Result { () throws(SatchelError) in
                try dispatching.decode(buffer: bytes, contentType: type, limits: .default)
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
            ("k=v&x=1", "application/x-www-form-urlencoded"),
            ("{}", "text/x-nobody-reads-this"),  // no member: the same error
        ] as [(String, String)])
    func aBufferDecodesAsTheArray(text: String, type: String) throws {
        let (array, buffer) = both(Array(text.utf8), try MediaType(parsing: type))
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
}
