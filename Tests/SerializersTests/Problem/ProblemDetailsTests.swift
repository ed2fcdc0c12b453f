// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry
import Serializers
import Testing

/// RFC 9457 problem details carried by the error of a failed response.
@Suite struct ProblemDetailsTests {
    // RFC 9457 §3's example, with an extension member and a member of the wrong type.
    let body = Array(
        #"""
        {"type":"https://example.com/probs/out-of-credit","title":"You do not have enough credit.",
         "detail":"Your current balance is 30, but that costs 50.","instance":"/account/12345/msgs/abc",
         "balance":30,"accounts":["/account/12345","/account/67890"],"status":"403"}
        """#.utf8)

    func response(_ status: Int, _ contentType: String = "application/problem+json") -> HTTPResponse {
        HTTPResponse(status: .init(code: status), headerFields: [.contentType: contentType])
    }

    @Test func aFailedResponseCarriesTheDecodedProblem() throws {
        let result = Registry.standard().decode(response: response(403), body: body)
        #expect(result.serializerName == "problem")
        let error = try #require(result.error)
        #expect(error.code == .unacceptableStatusCode)
        #expect(
            error.message
                == "status 403 is not acceptable: You do not have enough credit.: Your current balance is 30, but that costs 50."
        )
        let problem = try #require(error.problemDetails)
        #expect(problem.type == "https://example.com/probs/out-of-credit")
        #expect(problem.instance == "/account/12345/msgs/abc")
        #expect(problem.status == nil)  // "403" is a string: ignored (RFC 9457 §3.1)
        #expect(problem.extensions["balance"] == 30)
        #expect(Array(problem.extensions.keys) == ["balance", "accounts"])
    }

    @Test func defaultsAndSummary() throws {
        let problem = try #require(ProblemDetails(["title": "Not Found", "status": 404]))
        #expect(problem.type == "about:blank")
        #expect(problem.status == 404)
        #expect(problem.summary == "Not Found")
        #expect(ProblemDetails(["detail": "gone", "status": 99])?.status == nil)
        #expect(ProblemDetails(["a", "b"]) == nil)
    }

    @Test func aSuccessfulProblemBodyIsJustItsValue() {
        let result = Registry.standard().decode(response: response(200), body: Array(#"{"title":"t"}"#.utf8))
        #expect(result.error == nil)
        #expect(result.value == ["title": "t"])
    }

    @Test func aProblemThatIsNotAnObjectIsATypeMismatchUnderTheStatusError() {
        let result = Registry.standard().decode(response: response(500), body: Array("[1]".utf8))
        #expect(result.error?.code == .unacceptableStatusCode)
        #expect((result.error?.underlying as? SatchelError)?.code == .typeMismatch)
        let broken = Registry.standard().decode(response: response(500), body: Array("{\"title\":".utf8))
        #expect((broken.error?.underlying as? SatchelError)?.code == .truncatedInput)
        #expect(broken.error?.problemDetails == nil)
    }

    @Test func onlyProblemResponsesHaveProblemDetails() {
        let result = Registry.standard().decode(
            response: response(500, "application/json"), body: Array(#"{"title":"x"}"#.utf8))
        #expect(result.error?.decodedValue == ["title": "x"])
        #expect(result.error?.problemDetails == nil)
        #expect(result.error?.message == "status 500 is not acceptable")
    }
}
