// SPDX-License-Identifier: Apache-2.0
import HTTPTypes

/// Tries its members in order and takes the first that yields a value (AFNetworking's
/// `AFCompoundResponseSerializer`).
///
/// - The first member whose result has a value wins, with its error if it also produced one (a
///   500 whose JSON body decoded).
/// - The errors of members that yielded nothing are not thrown away: they are
///   ``SatchelError/attempts`` of the winner's error, or of the final error when none wins.
/// - When no member yields a value, the result is an error — the first member error that is not
///   an unacceptable Content-Type (the member that accepted the body and failed to decode it
///   says the most), or else ``SatchelError/Code/unacceptableContentType`` naming every member.
///   The raw bytes are never passed off as a decoded value (AFNetworking's issue #3329). When
///   no member yields anything, not even an error (an empty body), the result is no value.
public struct CompoundResponseSerializer: ResponseSerializer {
    /// `"compound"`.
    public var name: String { "compound" }
    /// The members, tried in order.
    public let members: [any ResponseSerializer]

    /// Creates a compound of `members`, tried in order.
    public init(_ members: [any ResponseSerializer]) {
        self.members = members
    }

    /// Every range any member accepts, in member order.
    public var acceptableContentTypes: MediaRangeList {
        MediaRangeList(members.flatMap(\.acceptableContentTypes.ranges))
    }

    /// Decodes with the first member that accepts `contentType` (every member when it is `nil`)
    /// and yields a value.
    ///
    /// - Throws: The error chosen as described on the type, with the members' errors as
    ///   ``SatchelError/attempts``.
    public func decode(_ body: [UInt8], contentType: MediaType?, limits: Limits) throws(SatchelError) -> Value? {
        var attempts: [SatchelError.Attempt] = []
        for member in members {
            if let contentType, !member.acceptableContentTypes.accepts(contentType) {
                attempts.append(
                    .init(
                        serializerName: member.name,
                        error: SatchelError(
                            .unacceptableContentType,
                            "the \(member.name) serializer does not accept \(contentType.essence)")))
                continue
            }
            do {
                if let value = try member.decode(body, contentType: contentType, limits: limits) { return value }
            } catch {
                attempts.append(.init(serializerName: member.name, error: error))
            }
        }
        if attempts.isEmpty { return nil }
        throw finalError(attempts, contentType: contentType)
    }

    /// Validates and decodes with each member in turn, as described on the type.
    public func serialize(_ plan: ResponsePlan, body: [UInt8], limits: Limits) -> DecodedResponse {
        let response = plan.response
        var attempts: [SatchelError.Attempt] = []
        for member in members {
            var result = member.serialize(plan.planning(member), body: body, limits: limits)
            if result.value != nil {
                result.error?.attempts = attempts
                return result
            }
            if let error = result.error { attempts.append(.init(serializerName: member.name, error: error)) }
        }
        var result = DecodedResponse(response: response, value: nil, error: nil, serializerName: nil)
        if !attempts.isEmpty {
            result.error = finalError(attempts, contentType: plan.contentType).attaching(
                response: response, body: body)
        }
        return result
    }

    /// The error reported when no member yielded a value.
    private func finalError(_ attempts: [SatchelError.Attempt], contentType: MediaType?) -> SatchelError {
        var error: SatchelError
        if let telling = attempts.first(where: { $0.error.code != .unacceptableContentType }) {
            error = telling.error
            error.message = "the \(telling.serializerName) serializer failed: \(error.message)"
        } else {
            let names = members.map(\.name).joined(separator: ", ")
            error = SatchelError(
                .unacceptableContentType,
                "none of the serializers (\(names)) accepts "
                    + (contentType.map { "Content-Type \($0.essence)" } ?? "a body without Content-Type"))
        }
        error.attempts = attempts
        return error
    }
}
