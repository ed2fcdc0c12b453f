// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import Satchel

/// What `satchel request` sends, worked out from the method, the URL and the request items:
/// the URL with its query items, the headers, the body format and the body's contents.
///
/// Data items go into one object (a name given twice becomes an array, in order); the request
/// serializer puts it in the body, or in the query string for GET, HEAD and DELETE
/// (AFNetworking's rule). Query items (`key==value`) are appended to the URL as given.
struct RequestPlan {
    /// The request method.
    var method: HTTPRequest.Method
    /// The absolute URL, query items appended.
    var url: String
    /// Headers from `Header:value` items and `--header`.
    var headers: HTTPFields = [:]
    /// The body format chosen.
    var format: RequestFormat
    /// Data fields and raw JSON values, `nil` when there are none.
    var parameters: Value?
    /// File parts, in order.
    var files: [RequestItem] = []

    /// Works out the request.
    ///
    /// - Parameters:
    ///   - method: The method as typed (case-insensitive).
    ///   - url: The URL; see ``normalizedURL(_:)``.
    ///   - items: The request items.
    ///   - format: The format asked for with `--form`, `--json`, `--multipart` or `--plist`.
    ///   - limits: The limits for parsing raw JSON values.
    /// - Throws: ``UsageError`` for a bad method, URL, item or a format the items cannot use;
    ///   ``SatchelError/Code/io`` (exit 66) for a file item that cannot be read.
    init(method: String, url: String, items: [RequestItem], format: RequestFormat?, limits: Limits) throws {
        guard let parsedMethod = HTTPRequest.Method(method.uppercased()) else {
            throw UsageError("'\(method)' is not an HTTP method")
        }
        self.method = parsedMethod
        let hasFiles = items.contains { if case .file = $0 { true } else { false } }
        let hasJSON = items.contains {
            switch $0 {
            case .json, .jsonFromFile: true
            default: false
            }
        }
        self.format = try Self.chooseFormat(asked: format, hasFiles: hasFiles, hasJSON: hasJSON)
        if hasFiles && Self.bodylessMethods.contains(parsedMethod) {
            throw UsageError("file items need a request body, which \(parsedMethod.rawValue) does not send")
        }

        var query: [FormWriter.Pair] = []
        var members = ValueObject()
        for item in items {
            switch item {
            case let .header(name, value):
                guard let fieldName = HTTPField.Name(name) else {
                    throw UsageError("'\(name)' is not a valid header name")
                }
                headers.append(HTTPField(name: fieldName, value: value))
            case let .query(name, value):
                query.append(FormWriter.Pair(key: name, value: Array(value.utf8)))
            case let .field(name, value):
                Self.add(.string(value), named: name, to: &members)
            case let .fieldFromFile(name, path):
                let bytes = try CommandIO.read(path, limit: limits.maxStringBytes)
                Self.add(.string(String(decoding: bytes, as: UTF8.self)), named: name, to: &members)
            case let .json(name, text):
                Self.add(
                    try Self.parseJSON(Array(text.utf8), item: "\(name):=", limits: limits), named: name, to: &members)
            case let .jsonFromFile(name, path):
                let bytes = try CommandIO.read(path, limit: limits.maxBodyBytes)
                Self.add(
                    try Self.parseJSON(bytes, item: "\(name):=@\(path)", limits: limits), named: name, to: &members)
            case let .file(_, path, _):
                try Self.checkReadable(path)
                files.append(item)
            }
        }
        parameters = members.isEmpty ? nil : .object(members)
        var absolute = try Self.normalizedURL(url)
        if !query.isEmpty {
            absolute = FormRequestSerializer.appending(query: try FormWriter().queryString(from: query), to: absolute)
        }
        self.url = absolute
    }

    /// GET, HEAD and DELETE: their data items go into the query string.
    static let bodylessMethods: Set<HTTPRequest.Method> = [.get, .head, .delete]

    /// The URL with httpie's shorthands expanded: no scheme means `http://`, and a leading
    /// colon means localhost (`:8080/x` is `http://localhost:8080/x`).
    /// - Throws: ``UsageError`` for an empty URL or a scheme other than http and https.
    static func normalizedURL(_ text: String) throws -> String {
        var url = text
        if url.hasPrefix(":") {
            let rest = url.dropFirst()
            url = "http://localhost" + (rest.first.map { $0.isNumber } == true ? ":" + rest : rest)
        } else if !url.contains("://") {
            url = "http://" + url
        }
        let scheme = url.prefix { $0 != ":" }.lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw UsageError("'\(text)' is not an http or https URL")
        }
        guard url.count > scheme.count + 3 else { throw UsageError("'\(text)' names no host") }
        return url
    }

    private static func chooseFormat(asked: RequestFormat?, hasFiles: Bool, hasJSON: Bool) throws -> RequestFormat {
        switch asked {
        case nil:
            return hasFiles ? .multipart : hasJSON ? .json : .form
        case .form?, .multipart?:
            if hasJSON {
                throw UsageError("raw JSON items (key:=value) need --json or --plist, not --\(asked?.rawValue ?? "")")
            }
            return hasFiles ? .multipart : asked ?? .form
        case .json?, .plist?:
            if hasFiles {
                throw UsageError("file items (key@path) need a multipart body, not --\(asked?.rawValue ?? "")")
            }
            return asked ?? .json
        }
    }

    /// Adds a member; a name seen before becomes an array of its values, in order.
    private static func add(_ value: Value, named name: String, to members: inout ValueObject) {
        switch members[name] {
        case nil: members[name] = value
        case .array(var values)?:
            values.append(value)
            members[name] = .array(values)
        case let existing?: members[name] = .array([existing, value])
        }
    }

    private static func parseJSON(_ bytes: [UInt8], item: String, limits: Limits) throws -> Value {
        do {
            return try JSONReader(limits: limits).read(bytes)
        } catch {
            throw UsageError("the JSON value of \(item) is invalid: \(error)")
        }
    }

    /// - Throws: ``SatchelError/Code/io`` when `path` is not a readable regular file.
    private static func checkReadable(_ path: String) throws {
        let descriptor = try CommandIO.open(path)
        CommandIO.close(descriptor)
    }
}

/// The request serializer `satchel request` uses.
enum RequestFormat: String, CaseIterable {
    /// `application/x-www-form-urlencoded` (AFNetworking's default).
    case form
    /// `application/json`.
    case json
    /// `multipart/form-data`, streamed.
    case multipart
    /// An XML property list.
    case plist
}
