// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Satchel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `satchel request`: an HTTP client with httpie's request items, on Transport's ``Session``.
struct Request: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Send an HTTP request and print the decoded response.",
        discussion: """
            Items: Header:value (a header), key==value (a query parameter), key=value (a field: \
            form, or a JSON string with --json), key:=JSON (a raw JSON value), key@path[;type=T] \
            (a file part), key=@path (a field read from a file), key:=@path (JSON read from a \
            file). A backslash makes a separator literal: a\\=b=c is the field a=b. The body is \
            multipart when there is a file item, JSON when there is a := item, else a form; \
            --form, --json, --multipart and --plist choose. GET, HEAD and DELETE put fields in \
            the query string. A URL without a scheme is http://; :8080/x is http://localhost:8080/x.

            The response must have a 2xx status (else exit 22; --no-check-status prints it \
            anyway) and is decoded by its Content-Type: JSON and plists print as indented JSON, \
            XML indented, images as a summary, multipart and batch bodies part by part, \
            problem+json as a summary. Colours only on a terminal. --raw prints the body as \
            received; --output FILE saves it (atomically); --download saves a GET to FILE (or the \
            URL's last path segment), resuming a partial download. --auth user:password sends \
            Basic credentials, or with --auth-type digest|ntlm|any answers the server's challenge \
            (to the URL's host only); --auth-type bearer sends --auth as a bearer token. \
            -v prints the request and \
            response heads (on standard error when the body goes to a file). --stream prints the \
            records of a text/event-stream, JSON Lines, application/json-seq or multipart \
            response one compact JSON per line as each arrives (an event as \
            {"event":TYPE,"data":DATA,"id":LAST_EVENT_ID}); --sse does the same for an event \
            stream and reconnects as a browser's EventSource does, sending Last-Event-ID, until \
            the server answers 204 or the command is interrupted. --each PATH prints the elements \
            at PATH of one large JSON or XML response the same way (a JSON Pointer to an array, \
            or an XML element path with --namespace p=URI for its prefixes).

            Progress bars go to standard error when it is a terminal (--progress forces, --quiet \
            silences). Exit codes (curl's): 6 cannot resolve host, 7 cannot connect, 22 status \
            not acceptable, 28 timed out, 35 TLS handshake failed, 47 too many redirects, 56 \
            network failure mid-transfer, 60 certificate or pin rejected, 64 bad item or option, \
            65 undecodable body, 66 unreadable file, 67 no serializer for the body, 68 limit \
            exceeded, 74 output not writable, 130 interrupted.
            """
    )

    @Argument(
        help: "The method: GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS or any token.",
        completion: .list(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]))
    var method: String

    @Argument(help: "The URL (http:// is assumed; :PORT/path means localhost).")
    var url: String

    @Argument(help: "Request items: Header:value, key==value, key=value, key:=JSON, key@path.")
    var items: [String] = []

    @Flag(help: "The request body format (default: multipart with files, JSON with := items, else form).")
    var format: RequestFormat?

    @Option(
        name: .customLong("header"), help: ArgumentHelp("A header, as 'Name: value' (repeatable).", valueName: "header")
    )
    var headerOptions: [String] = []

    @Option(
        name: .customLong("auth"),
        help: ArgumentHelp(
            "Credentials: user:password (the password is asked for on a terminal when left out), or a token with --auth-type bearer.",
            valueName: "user:password"))
    var credentials: String?

    @Option(help: "How --auth is presented: basic (up front), digest, ntlm, any (after the challenge) or bearer.")
    var authType: AuthType = .basic

    @Option(
        help: ArgumentHelp(
            "Keep headers, cookies and auth between runs in this session: a NAME (kept under $XDG_CONFIG_HOME/satchel/sessions/HOST_PORT/) or a FILE path (with a /); httpie's format, mode 0600.",
            valueName: "name|file"), completion: .file())
    var session: String?

    /// `--auth-type`.
    enum AuthType: String, ExpressibleByArgument, CaseIterable {
        case basic, digest, ntlm, any, bearer
    }

    @Flag(help: "Print the response whatever its status.")
    var noCheckStatus = false

    @Flag(help: "Print the body as received, undecoded.")
    var raw = false

    @Option(
        name: .shortAndLong, help: ArgumentHelp("Save the body to this file.", valueName: "file"), completion: .file())
    var output: String?

    @Flag(
        help:
            "Print the records of a streaming response (events, JSON Lines, JSON text sequences, parts) as they arrive."
    )
    var stream = false

    @Flag(
        help: "Follow an event stream as EventSource does: reconnect with Last-Event-ID until the server answers 204.")
    var sse = false

    @Option(
        help: ArgumentHelp(
            "Print the elements at PATH of a large JSON or XML response as they arrive (a JSON Pointer to an array, or an XML element path).",
            valueName: "PATH"))
    var each: String?

    @Option(
        name: .customLong("namespace"),
        help: ArgumentHelp("With --each: a prefix of the XML path, as p=URI (repeatable).", valueName: "p=URI"))
    var namespaces: [String] = []

    @Flag(name: .shortAndLong, help: "Download a GET to --output (or the URL's last segment), resuming a partial file.")
    var download = false

    @Option(
        help: ArgumentHelp(
            "With --download: synced (the file and its rename flushed to the disk before the command ends) or none.",
            valueName: "synced|none"))
    var durability: Durability = .synced

    /// `--durability`: ``DownloadDurability`` by name.
    enum Durability: String, ExpressibleByArgument, CaseIterable {
        case synced, none

        var value: DownloadDurability { self == .synced ? .synced : .none }
    }

    @Flag(name: .shortAndLong, help: "Print the request and response heads.")
    var verbose = false

    @Flag(help: "Print only the response head.")
    var headers = false

    @Flag(name: .shortAndLong, help: "No progress bar and no download summary.")
    var quiet = false

    @Flag(help: "Show the progress bar even when standard error is not a terminal.")
    var progress = false

    @Option(help: "Colours: auto (on a terminal), always or never.")
    var color: ColorChoice = .auto

    @OptionGroup var transfer: TransferOptions

    @OptionGroup var limits: LimitOptions

    enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
        case auto, always, never
    }

    func run() async throws {
        do {
            try await perform()
        } catch {
            throw CommandIO.fail(Self.classify(error))
        }
    }

    /// A transport `invalidArgument` (a URL libcurl refuses, a policy rule) is a usage error.
    private static func classify(_ error: any Error) -> any Error {
        if let satchel = error as? SatchelError, satchel.code == .invalidArgument {
            return UsageError(satchel.message)
        }
        return error
    }
}

extension RequestFormat: EnumerableFlag {}
