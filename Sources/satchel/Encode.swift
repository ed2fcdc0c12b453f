import ArgumentParser
import HTTPTypes
import Satchel

/// `satchel encode`: read parameters as JSON and print what a request serializer makes of them.
struct Encode: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read parameters as JSON and print the serialized body.",
        discussion: """
            For GET, HEAD and DELETE the parameters go into the URL, as AFNetworking puts them: \
            the output is then the query string. --include-headers prints the request head \
            (request line and headers) before the body.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case form, json
    }

    @Option(name: .customLong("as"), help: "The body format: \(Format.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: Format

    @Option(help: "The request method, which decides between query string and body.")
    var method: String = "POST"

    @Flag(help: "Print the request line and headers before the body.")
    var includeHeaders = false

    @Flag(help: "JSON: indent the output.")
    var pretty = false

    @Flag(help: "JSON: write object members sorted by key.")
    var sortedKeys = false

    @Flag(help: "JSON: write '/' unescaped.")
    var withoutEscapingSlashes = false

    @OptionGroup var limits: LimitOptions

    @Argument(help: "A JSON file of parameters, or - for standard input.")
    var file: String = "-"

    func validate() throws {
        guard HTTPRequest.Method(method.uppercased()) != nil else {
            throw ValidationError("'\(method)' is not an HTTP method")
        }
    }

    func run() throws {
        do {
            let limits = limits.limits
            let input = try CommandIO.read(file, limit: limits.maxBodyBytes)
            let parameters = try JSONReader(limits: limits).read(input)
            let serializer: any RequestSerializer
            switch format {
            case .form:
                serializer = FormSerializer()
            case .json:
                var options = JSONWriter.Options()
                options.prettyPrinted = pretty
                options.sortedKeys = sortedKeys
                options.escapesSlashes = !withoutEscapingSlashes
                serializer = JSONSerializer(writingOptions: options)
            }
            let method = HTTPRequest.Method(method.uppercased()) ?? .post
            let head = HTTPRequest(method: method, scheme: "http", authority: "localhost", path: "/")
            var serialized = try serializer.serialize(parameters, into: head)
            if let body = serialized.body {
                serialized.request.headerFields[.contentLength] = String(body.count)
            }
            try CommandIO.write(Self.render(serialized, includeHeaders: includeHeaders))
        } catch {
            throw CommandIO.fail(error)
        }
    }

    /// The body, or the query string when the parameters went into the URL; with the head first
    /// when asked.
    static func render(_ serialized: SerializedRequest, includeHeaders: Bool) -> [UInt8] {
        let path = serialized.request.path ?? "/"
        var output: [UInt8] = []
        if includeHeaders {
            var head = "\(serialized.request.method) \(path) HTTP/1.1\r\n"
            for field in serialized.request.headerFields {
                head += "\(field.name): \(field.value)\r\n"
            }
            output.append(contentsOf: (head + "\r\n").utf8)
        }
        if let body = serialized.body {
            output.append(contentsOf: body)
        } else if let query = path.split(separator: "?", maxSplits: 1).dropFirst().first {
            output.append(contentsOf: query.utf8)
        }
        if !includeHeaders || serialized.body == nil { output.append(UInt8(ascii: "\n")) }
        return output
    }
}
