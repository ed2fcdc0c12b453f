// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Where the connections for a host and port go instead of where DNS says, the request itself
/// unchanged (its URL, `Host` and the TLS name checked): curl's `--resolve` and `--connect-to`.
///
/// ```swift
/// configuration.hostOverrides = [
///     .resolve("api.example.com", port: 443, to: ["10.0.0.7"]),                    // --resolve
///     .connect("api.example.com", port: 443, to: "canary.internal", port: 8443),   // --connect-to
///     try HostOverride(resolve: "static.example.com:443:10.0.0.8,10.0.0.9"),
/// ]
/// ```
public struct HostOverride: Sendable, Hashable {
    /// Where the connections go.
    public enum Target: Sendable, Hashable {
        /// These addresses, tried in order (`--resolve`).
        case addresses([String])
        /// This host and port, itself resolved by DNS or another override (`--connect-to`).
        case endpoint(host: String, port: Int)
    }

    /// The host of the URLs it applies to.
    public var host: String
    /// Their port.
    public var port: Int
    /// Where their connections go.
    public var target: Target

    /// Connections for `host`:`port` go to `addresses`.
    public static func resolve(_ host: String, port: Int, to addresses: [String]) -> HostOverride {
        HostOverride(host: host, port: port, target: .addresses(addresses))
    }

    /// Connections for `host`:`port` go to `targetHost`:`targetPort`.
    public static func connect(_ host: String, port: Int, to targetHost: String, port targetPort: Int) -> HostOverride {
        HostOverride(host: host, port: port, target: .endpoint(host: targetHost, port: targetPort))
    }

    private init(host: String, port: Int, target: Target) {
        self.host = host
        self.port = port
        self.target = target
    }

    /// Parses curl's `--resolve` form, `HOST:PORT:ADDRESS[,ADDRESS…]` (an IPv6 address in
    /// brackets).
    /// - Throws: ``SatchelError/Code/invalidArgument`` naming what is wrong.
    public init(resolve text: String) throws(SatchelError) {
        let fields = Self.fields(text, count: 3, form: "HOST:PORT:ADDRESS")
        guard let fields, let port = Int(fields[1]) else {
            throw SatchelError(.invalidArgument, "--resolve \(text) is not HOST:PORT:ADDRESS[,ADDRESS]")
        }
        let addresses = fields[2].split(separator: ",").map(String.init)
        self = .resolve(fields[0], port: port, to: addresses)
        try check()
    }

    /// Parses curl's `--connect-to` form, `HOST:PORT:TARGET_HOST:TARGET_PORT`.
    /// - Throws: ``SatchelError/Code/invalidArgument`` naming what is wrong.
    public init(connectTo text: String) throws(SatchelError) {
        let fields = Self.fields(text, count: 4, form: "HOST:PORT:TARGET_HOST:TARGET_PORT")
        guard let fields, let port = Int(fields[1]), let targetPort = Int(fields[3]) else {
            throw SatchelError(.invalidArgument, "--connect-to \(text) is not HOST:PORT:TARGET_HOST:TARGET_PORT")
        }
        self = .connect(fields[0], port: port, to: fields[2], port: targetPort)
        try check()
    }

    /// The line libcurl's `CURLOPT_RESOLVE` or `CURLOPT_CONNECT_TO` takes.
    var curlLine: String {
        switch target {
        case .addresses(let addresses): "\(host):\(port):\(addresses.joined(separator: ","))"
        case .endpoint(let targetHost, let targetPort): "\(host):\(port):\(targetHost):\(targetPort)"
        }
    }

    /// Checks the fields libcurl would take apart.
    /// - Throws: ``SatchelError/Code/invalidArgument`` for an empty or malformed field.
    func check() throws(SatchelError) {
        let names: [String]
        let ports: [Int]
        switch target {
        case .addresses(let addresses): (names, ports) = ([host] + addresses, [port])
        case .endpoint(let targetHost, let targetPort): (names, ports) = ([host, targetHost], [port, targetPort])
        }
        for name in names where name.isEmpty || name.contains(where: { $0 == "," || $0 == " " || $0.isNewline }) {
            throw SatchelError(.invalidArgument, "the host override \(curlLine) has an empty or malformed host")
        }
        for port in ports where !(1...65535).contains(port) {
            throw SatchelError(.invalidArgument, "the host override \(curlLine) has the port \(port), not 1…65535")
        }
    }

    /// `text` split on the colons outside brackets into exactly `count` non-empty fields, or `nil`.
    private static func fields(_ text: String, count: Int, form: String) -> [String]? {
        var fields: [String] = []
        var current = ""
        var inBrackets = false
        for character in text {
            switch character {
            case "[": inBrackets = true
            case "]": inBrackets = false
            case ":" where !inBrackets && fields.count < count - 1:
                fields.append(current)
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        fields.append(current)
        return fields.count == count && fields.allSatisfy({ !$0.isEmpty }) ? fields : nil
    }
}

/// The most bytes per second a transfer sends and receives (curl's `--limit-rate`,
/// AFNetworking's `throttleBandwidthWithPacketSize:delay:`); `nil` for no limit. libcurl keeps
/// the average over the transfer under the limit by pausing it, so short bursts may pass it.
public struct RateLimit: Sendable, Hashable {
    /// Upload bytes per second.
    public var upload: Int?
    /// Download bytes per second.
    public var download: Int?

    /// Creates a limit.
    public init(upload: Int? = nil, download: Int? = nil) {
        self.upload = upload
        self.download = download
    }
}
