// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import SatchelTestSupport
import SerializerRegistry
import Serializers
import Testing

@testable import Transport

/// The transport gets every format through the registry: the default request serializer, the
/// query string next to a given body, and bodies made by a ``RequestBodySource``.
@Suite(.hangGuard)
struct SessionRegistryTests {
    /// A body source of the test's own: text made anew for every attempt.
    struct TextSource: RequestBodySource {
        var text: String
        var contentType: MediaType { MediaType.plainText.setting(parameter: "charset", to: "utf-8") }
        func makeRequestBodyStream() throws(SatchelError) -> any BodyStream { ByteBodyStream(Array(text.utf8)) }
    }

    @Test func aRegistryWithoutAFormSerializerNeedsARequestSerializer() throws {
        let empty = Registry()
        let error = #expect(throws: SatchelError.self) { _ = try Session(registry: empty) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("application/x-www-form-urlencoded") == true)
        let session = try Session(registry: empty, requestSerializer: JSONRequestSerializer())
        #expect(session.requestSerializer.name == "json")
        #expect(try Session(registry: .standard()).requestSerializer.name == FormRequestSerializer().name)
    }

    @Test func theRegistryWritesQueryStrings() throws {
        let parameters: Value = ["b": "2 3", "a": ["x", "y"]]
        #expect(try Registry.standard().queryString(from: parameters) == "a%5B%5D=x&a%5B%5D=y&b=2%203")
        let error = #expect(throws: SatchelError.self) { _ = try Registry().queryString(from: parameters) }
        #expect(error?.code == .unacceptableContentType)
        #expect(URLQuery.appending("q=1", to: "/s?x=1#top") == "/s?x=1&q=1#top")
        #expect(URLQuery.appending("q=1", to: "/s?") == "/s?q=1")
        #expect(URLQuery.appending("q=1", to: "/s") == "/s?q=1")
    }

    @Test func aBodySourceIsMadeAnewAndParametersGoToTheQuery() async throws {
        let session = try SessionSupport.session(try TestServers.shared().httpbin)
        let response = try await session.upload(
            .multipart(TextSource(text: "from a source")), to: "anything", method: .put, parameters: ["q": "1"])
        #expect(response.value?["data"]?.stringValue == "from a source")
        #expect(response.value?["headers"]?["Content-Type"]?.stringValue == "text/plain; charset=utf-8")
        #expect(response.value?["args"]?["q"]?.stringValue == "1")
        // A 307 redirect sends the body again: a second stream from the source.
        let redirected = try await session.upload(
            .multipart(TextSource(text: "again")), to: "redirect-to?url=/anything&status_code=307", method: .post)
        #expect(redirected.value?["data"]?.stringValue == "again")
        // Parameters that encode to nothing add no `?`.
        let bare = try await session.upload(
            .bytes(Array("x".utf8), contentType: .plainText), to: "anything", parameters: [:])
        #expect(!bare.url.contains("?"))
    }
}
