// SPDX-License-Identifier: Apache-2.0
import Satchel

extension ValuePrinter {
    /// Appends a payload: multipart parts, an embedded HTTP message, an image, an XML document,
    /// a part that failed to decode, a spilled part, or any other payload as canonical JSON.
    func appendPayload(_ payload: any ValuePayload, indent: String, to output: inout String) {
        switch payload {
        case let parts as MultipartParts:
            for (index, element) in parts.enumerated() {
                let part = element.part
                var title = "part \(index + 1) of \(parts.count)"
                if let name = part.name { title += ", name \"\(name)\"" }
                if let filename = part.filenameStar ?? part.filename { title += ", file \"\(filename)\"" }
                title += ", \(part.size) bytes"
                output += indent + style("── \(title)", .yellow, .bold) + "\n"
                for header in part.headers {
                    output += indent + style(header.name, .cyan) + ": " + header.value + "\n"
                }
                output += "\n"
                append(element.value, indent: indent + "  ", to: &output)
            }
        case let message as EmbeddedHTTPMessage:
            let startLine =
                message.status.map { "\(message.version) \($0) \(message.reason ?? "")" }
                ?? "\(message.method ?? "") \(message.target ?? "") \(message.version)"
            let acceptable = message.error == nil
            output += indent + style(startLine.trimmingTrailingSpaces, acceptable ? .green : .red, .bold) + "\n"
            for header in message.headers {
                output += indent + style(header.name, .cyan) + ": " + header.value + "\n"
            }
            output += "\n"
            append(message.value, indent: indent, to: &output)
        case let image as DecodedImage:
            output += indent + imageSummary(image) + "\n"
        case let document as XMLDocumentPayload:
            var lines: [String] = []
            XMLOutline.append(document.canonicalValue, depth: 0, to: &lines)
            output += lines.map { indent + $0 + "\n" }.joined()
        case let failure as DecodingFailure:
            output += indent + style("undecodable: \(failure.error.description.oneLine)", .red) + "\n"
        case let file as TemporaryFile:
            output += indent + style("[\(file.size) bytes kept in a temporary file, not shown]", .dim) + "\n"
        default:
            let json = Value.object([type(of: payload).kind: payload.canonicalValue]).canonicalJSON(pretty: true)
            output += Self.indented(highlightedJSON(json) + "\n", by: indent)
        }
    }

    /// `PNG image, 640×480, rgba, 8-bit` and the notable flags (interlaced, progressive, ICC
    /// profile, EXIF orientation).
    func imageSummary(_ image: DecodedImage) -> String {
        let metadata = image.metadata
        var text =
            "\(image.format.rawValue.uppercased()) image, \(metadata.width)×\(metadata.height), "
            + "\(metadata.colorType.rawValue), \(metadata.bitDepth)-bit"
        if metadata.interlaced { text += ", interlaced" }
        if metadata.progressive { text += ", progressive" }
        if metadata.hasICCProfile { text += ", ICC profile" }
        if metadata.orientation != .up { text += ", orientation \(metadata.orientation)" }
        return style(text, .bold)
    }
}

extension String {
    /// The string without trailing spaces.
    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
