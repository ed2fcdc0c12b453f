// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import Satchel

#if canImport(Glibc)
    import Glibc
#endif

/// A `--session` file: headers, cookies and auth kept between runs, in httpie's session format
/// (httpie 3), so a file either tool wrote is read by the other.
///
/// ```json
/// {"__meta__": {"about": "HTTPie session file", "help": "https://httpie.io/docs#sessions", "satchel": "0.1.0"},
///  "auth": {"type": "basic", "raw_auth": "ann:s3cret", "username": null, "password": null},
///  "cookies": [{"name": "flavour", "value": "oat", "domain": "127.0.0.1", "path": "/", "secure": false, "expires": null}],
///  "headers": [{"name": "X-Team", "value": "core"}]}
/// ```
struct SessionFile: Codable {
    struct Meta: Codable {
        var about = "HTTPie session file"
        var help = "https://httpie.io/docs#sessions"
        var satchel: String? = DefaultHeaders.satchelVersion
    }

    struct Auth: Codable {
        /// basic, digest, ntlm, any or bearer.
        var type: String?
        /// `--auth` as given: user:password, or the token.
        var raw_auth: String?
        var username: String?
        var password: String?
    }

    struct StoredCookie: Codable {
        var name: String
        var value: String
        /// httpie's "" means the session's host; a leading dot, its subdomains too.
        var domain: String
        var path: String?
        var secure: Bool?
        var expires: Int64?
    }

    struct Header: Codable {
        var name: String
        var value: String
    }

    var __meta__ = Meta()
    var auth = Auth()
    var cookies: [StoredCookie] = []
    var headers: [Header] = []

    /// Headers a session does not keep (httpie's rule): the body's, conditional ones, and the
    /// ones kept elsewhere (cookies, auth).
    static func keeps(_ name: HTTPField.Name) -> Bool {
        let lower = name.canonicalName
        return !lower.hasPrefix("content-") && !lower.hasPrefix("if-") && lower != "cookie" && lower != "authorization"
    }

    /// The file a `--session` argument names: a path when it contains a `/`, else
    /// `NAME.json` under `$XDG_CONFIG_HOME/satchel/sessions/HOST_PORT/` (httpie keeps its own
    /// under `~/.config/httpie/sessions/HOST_PORT/`).
    /// - Throws: `UsageError` for an empty name, `.` or `..`.
    static func path(for argument: String, url: String) throws -> String {
        if argument.contains("/") { return argument }
        guard !argument.isEmpty, argument != ".", argument != ".." else {
            throw UsageError("--session '\(argument)' is not a session name (or a path with a /)")
        }
        guard let components = URLComponents(string: url), let host = components.host, !host.isEmpty else {
            throw UsageError("--session \(argument): \(url) has no host to keep the session under")
        }
        let environment = ProcessInfo.processInfo.environment
        let config =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        let folder = components.port.map { "\(host)_\($0)" } ?? host
        return "\(config)/satchel/sessions/\(folder.replacingOccurrences(of: ":", with: "_"))/\(argument).json"
    }

    /// The session at `path`; an empty one when there is no file.
    /// - Throws: ``SatchelError/Code/io`` when it cannot be read; ``SatchelError/Code/syntaxError``
    ///   naming the file when it is not a session file.
    static func load(_ path: String) throws -> SessionFile {
        guard FileManager.default.fileExists(atPath: path) else { return SessionFile() }
        CommandIO.close(try CommandIO.open(path))  // its error names the path and the reason
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SatchelError(.io, "cannot read the session file \(path)")
        }
        do {
            return try JSONDecoder().decode(SessionFile.self, from: data)
        } catch {
            throw SatchelError(.syntaxError, "\(path) is not a session file: \(error)")
        }
    }

    /// Writes the session to `path` atomically with mode 0600, making its folders (0700).
    /// - Throws: ``SatchelError/Code/io`` naming the path.
    func save(_ path: String) throws {
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            let folder = String(path[..<slash])
            do {
                try FileManager.default.createDirectory(
                    atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw SatchelError(.io, "cannot make the session folder \(folder): \(error.localizedDescription)")
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(self)
        try CommandIO.writeAtomically(Array(data) + [0x0A], toFile: path, mode: 0o600)
    }

    /// The stored cookies, for a request to `host`.
    func storeCookies(for host: String) -> [Cookie] {
        cookies.map { stored in
            let domain = stored.domain.isEmpty ? host : stored.domain
            return Cookie(
                name: stored.name, value: stored.value,
                domain: domain.hasPrefix(".") ? String(domain.dropFirst()) : domain,
                includesSubdomains: domain.hasPrefix("."), path: stored.path ?? "/", isSecure: stored.secure ?? false,
                expires: stored.expires)
        }
    }

    /// Keeps `cookies` in place of the stored ones.
    mutating func keep(_ cookies: [Cookie]) {
        self.cookies = cookies.map { cookie in
            StoredCookie(
                name: cookie.name, value: cookie.value,
                domain: cookie.includesSubdomains ? "." + cookie.domain : cookie.domain, path: cookie.path,
                secure: cookie.isSecure, expires: cookie.expires)
        }
    }

    /// Keeps `fields` (those a session keeps) in place of stored headers of the same names.
    mutating func keep(_ fields: HTTPFields) {
        for field in fields where Self.keeps(field.name) {
            headers.removeAll { $0.name.lowercased() == field.name.canonicalName }
        }
        for field in fields where Self.keeps(field.name) {
            headers.append(Header(name: field.name.rawName, value: field.value))
        }
    }
}
