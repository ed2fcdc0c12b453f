import ArgumentParser
import Satchel

/// `satchel decode`: decode a payload as a response body and print its canonical JSON.
struct Decode: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decode a payload as a response body and print the value as canonical JSON.",
        discussion: """
            The serializer is chosen by --content-type through the registry, as for a response. \
            A body that carries no value (an empty JSON body, for example) prints nothing.

            A multipart/form-data body (give its boundary: -c 'multipart/form-data; boundary=B') \
            prints {"$multipart": [{headers, name, filename, filenameStar, contentType, size, \
            value}]}, each part's value decoded by its own Content-Type; a part that fails to \
            decode has {"$error": {code, message}} as its value. A malformed body exits 65 (68 for \
            a limit) with the part index and byte offset.

            -c application/x-plist reads an XML or binary property list (told from the bytes); \
            data, dates and UIDs print as {"$data": …}, {"$date": …} and {"$uid": n}. An empty \
            body is an error, as in AFNetworking.
            """
    )

    @Option(name: .shortAndLong, help: "The payload's media type.")
    var contentType: String = "application/json"

    @Flag(help: "Indent the output.")
    var pretty = false

    @Option(help: "JSON integers beyond 64 bits: throw, double or string.")
    var bigIntegers: BigIntegerChoice = .throw

    @Flag(help: "Drop JSON members and elements that are null.")
    var removeNulls = false

    @Flag(help: "Reject a JSON document that is a bare number, string, boolean or null.")
    var noTopLevelScalars = false

    @Flag(help: "Multipart: leave part bodies undecoded (text as strings, anything else as $data).")
    var rawParts = false

    @Flag(help: "Multipart: accept bare LF line endings and other common deviations from RFC 2046 and 7578.")
    var lenient = false

    @OptionGroup var limits: LimitOptions

    @Argument(help: "The file to decode, or - for standard input.")
    var file: String = "-"

    enum BigIntegerChoice: String, ExpressibleByArgument {
        case `throw`, double, string
    }

    func run() throws {
        do {
            let mediaType = try MediaType(parsing: contentType)
            let limits = self.limits.limits
            let registry = Registry.standard(limits: limits)
            var options = JSONReadingOptions()
            options.bigIntegers = switch bigIntegers {
            case .throw: .throw
            case .double: .double
            case .string: .string
            }
            options.removesKeysWithNullValues = removeNulls
            options.allowsTopLevelScalars = !noTopLevelScalars
            registry.register(JSONResponseSerializer(options: options), priority: 1)
            // The whole body is in memory already, so every part is decoded in place.
            let multipart = MultipartParser.Options(lenient: lenient, memoryThreshold: limits.maxBodyBytes)
            registry.register(MultipartResponseSerializer(options: multipart, rawParts: rawParts, registry: registry), priority: 1)

            let body = try CommandIO.read(file, limit: registry.limits.maxBodyBytes)
            guard let value = try registry.decode(body, contentType: mediaType) else { return }
            try CommandIO.write(Array((value.canonicalJSON(pretty: pretty) + "\n").utf8))
        } catch {
            throw CommandIO.fail(error)
        }
    }
}
