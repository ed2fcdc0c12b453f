// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import Satchel

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A fixed model the typed decoders fill from hostile bytes: every scalar kind, an array, and
/// itself nested (so depth limits are reached through the model too).
struct FuzzModel: Codable, Equatable {
    var id: Int?
    var name: String?
    var flag: Bool?
    var score: Double?
    var tags: [String]?
    var when: Date?
    var blob: Data?
    var child: [FuzzModel]?
}

extension FuzzTarget {
    /// Typed decoding into ``FuzzModel`` through `Registry.decode(_:response:body:)` as JSON, a
    /// form or XML (the first byte picks), and the model decoders directly; then every charset's
    /// decoder on the same bytes, failing and replacing.
    static let typed = FuzzTarget(
        name: "typed", summary: "Registry.decode(FuzzModel.self) as JSON, form, XML; Charset decode/encode"
    ) { input in
        let types = ["application/json", "application/x-www-form-urlencoded", "application/xml"]
        let contentType = types[Int(input.hash % UInt64(types.count))]
        let registry = Registry.standard(limits: FuzzLimits.tight)
        let response = HTTPResponse(status: .ok, headerFields: [.contentType: contentType])
        let typed = FuzzCheck.outcome("Registry.decode(FuzzModel) as \(contentType)") {
            try registry.decode(FuzzModel.self, response: response, body: input.bytes)
        }
        var form = URLEncodedFormDecoder()
        form.limits = FuzzLimits.tight
        _ = FuzzCheck.outcome("URLEncodedFormDecoder") { try form.decode(FuzzModel.self, from: input.bytes) }
        var xml = XMLModelDecoder()
        xml.limits = FuzzLimits.tight
        _ = FuzzCheck.outcome("XMLModelDecoder") { try xml.decode(FuzzModel.self, from: input.bytes) }
        // A model that came out of a form goes back into one.
        if case .success(let model) = typed, contentType == types[1] {
            _ = FuzzCheck.outcome("URLEncodedFormEncoder") { try URLEncodedFormEncoder().encode(model) }
        }

        let charsets: [Charset] = [.shiftJIS, .eucJP, .iso2022JP, .gb18030, .big5, .eucKR, .windows1255, .koi8U]
        let charset = charsets[Int((input.hash >> 8) % UInt64(charsets.count))]
        let strict = FuzzCheck.outcome("Charset.decode(\(charset))") { try charset.decode(input.bytes[...]) }
        switch FuzzCheck.outcome(
            "Charset.decode(\(charset), replace)", { try charset.decode(input.bytes[...], invalid: .replace) })
        {
        case .success(let replaced):
            if case .success(let text) = strict, text != replaced {
                FuzzCheck.fail("\(charset): valid bytes decode differently when replacing")
            }
            _ = FuzzCheck.outcome("Charset.encode(\(charset))") {
                try charset.encode(replaced, unencodable: .characterReference)
            }
        case .failure(let error):
            FuzzCheck.fail("\(charset): decoding with replacement failed: \(error)")
        }
    }
}
