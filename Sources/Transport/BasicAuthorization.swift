import Foundation

/// RFC 7617 Basic credentials.
enum BasicAuthorization {
    /// `Basic base64(username:password)`.
    static func header(username: String, password: String) -> String {
        "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
    }
}
