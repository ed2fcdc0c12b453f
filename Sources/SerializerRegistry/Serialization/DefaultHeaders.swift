// SPDX-License-Identifier: Apache-2.0
import HTTPTypes

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The headers AFNetworking sets on every request: `Accept-Language` from the user's locale and
/// a `User-Agent` naming the library and platform.
public enum DefaultHeaders {
    /// Satchel's version.
    public static let satchelVersion = "0.2.0"

    /// `Accept-Language` and `User-Agent` for this process.
    public static let standard: HTTPFields = {
        var fields = HTTPFields()
        fields[.acceptLanguage] = acceptLanguage(environment: ProcessInfo.processInfo.environment)
        fields[.userAgent] = userAgent
        return fields
    }()

    /// `Accept-Language` built from the POSIX locale variables, at most six languages with
    /// falling weights: `fr-CA, fr;q=0.9, en;q=0.8`.
    ///
    /// `LANGUAGE` (a colon-separated list) is read first, then `LC_ALL`, `LC_MESSAGES`, `LANG`;
    /// `en_US.UTF-8@euro` becomes `en-US`; `C` and `POSIX` stand for `en`. Without any, `en`.
    public static func acceptLanguage(environment: [String: String]) -> String {
        var languages: [String] = []
        func add(_ raw: String) {
            var name = Substring(raw)
            if let cut = name.firstIndex(where: { $0 == "." || $0 == "@" }) { name = name[..<cut] }
            var tag = String(name.map { $0 == "_" ? "-" : $0 })
            if tag == "C" || tag == "POSIX" { tag = "en" }
            let valid =
                !tag.isEmpty
                && tag.utf8.allSatisfy { byte in
                    byte == UInt8(ascii: "-") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
                        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                }
            if valid && !languages.contains(tag) && languages.count < 6 { languages.append(tag) }
        }
        if let list = environment["LANGUAGE"], !list.isEmpty {
            list.split(separator: ":").forEach { add(String($0)) }
        }
        for variable in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[variable], !value.isEmpty {
                add(value)
                break
            }
        }
        if languages.isEmpty { languages = ["en"] }
        return languages.enumerated().map { index, language in
            index == 0 ? language : "\(language);q=\(String(format3: 1 - Double(index) * 0.1))"
        }.joined(separator: ", ")
    }

    /// `Satchel/0.1.0 (Linux 6.1.0; x86_64)`: library, version, kernel and architecture.
    public static let userAgent: String = {
        var system = utsname()
        uname(&system)
        func field<T>(_ tuple: T) -> String {
            withUnsafeBytes(of: tuple) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
        }
        let release = field(system.release)
        let machine = field(system.machine)
        return "Satchel/\(satchelVersion) (Linux\(release.isEmpty ? "" : " " + release); \(machine))"
    }()
}

extension HTTPFields {
    /// Sets `Authorization: Basic …` for `username` and `password` (RFC 7617, UTF-8).
    public mutating func setBasicAuthorization(username: String, password: String) {
        let credentials = Data("\(username):\(password)".utf8).base64EncodedString()
        self[.authorization] = "Basic \(credentials)"
    }
}
