// SPDX-License-Identifier: Apache-2.0
import Foundation
import Satchel
import SatchelTestSupport
import Testing

/// A JSON request body chosen per call: sent as JSON whatever the session's request serializer
/// (the form serializer by default), numbers as numbers.
@Suite struct RequestBodyJSONTests {
    struct NewUser: Codable, Equatable {
        var name: String
        var age: Int
        var score: Double
        var tags: [String]
    }

    /// httpbin's echo of a JSON body.
    struct Echo: Decodable {
        var json: NewUser
        var headers: [String: String]
    }

    let session: Session
    let user = NewUser(name: "Ada é", age: 36, score: 9.5, tags: ["a", "b"])

    init() throws {
        // The default request serializer writes forms: `json:` must not depend on it.
        session = try Session(baseURL: try TestServers.shared().httpbin.absoluteString)
    }

    @Test func postPutAndPatchSendTheModelAsJSON() async throws {
        for (method, response) in [
            ("post", try await session.post("anything", json: user)),
            ("put", try await session.put("anything", json: user)),
            ("patch", try await session.patch("anything", json: user)),
        ] {
            let echo = try response.decode(Echo.self)
            #expect(echo.json == user, "\(method)")
            #expect(echo.headers["Content-Type"] == "application/json", "\(method)")
        }
        // The same model through the session's request serializer is a form: strings only.
        let form = try await session.post("anything", parameters: user)
        #expect(form.value?["form"]?["age"] == "36")
    }

    @Test func aRequestAndABodyTakeAnEncodable() async throws {
        var request = try SessionRequest(.post, "anything", json: user, headers: [.accept: "application/json"])
        request.timeouts = TransferTimeouts(request: .seconds(30))
        #expect(try await session.send(request).decode(Echo.self).json == user)
        let upload = try await session.upload(try .json(user), to: "anything", method: .put)
        #expect(try upload.decode(Echo.self).json == user)
    }

    /// A model JSON cannot hold fails before anything is sent, with its key path.
    @Test func anUnencodableModelFailsBeforeSending() async throws {
        struct Reading: Encodable { var value: Double }
        let error = await #expect(throws: SatchelError.self) {
            try await session.post("anything", json: ["readings": [Reading(value: .nan)]])
        }
        #expect(error?.code == .unencodableValue, "\(String(describing: error))")
        #expect(error?.keyPath?.contains("readings") == true, "\(String(describing: error))")
        #expect(throws: SatchelError.self) { try SessionRequest(.put, "x", json: Reading(value: .infinity)) }
    }
}
