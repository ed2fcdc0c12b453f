// SPDX-License-Identifier: Apache-2.0
@preconcurrency import Rainbow
import Satchel

/// Prints decoded values for people: JSON and property lists as indented JSON (the canonical
/// writer's output, coloured on a terminal), XML indented, images summarised, multipart and
/// batch bodies part by part with each part's headers, problem details as an error summary,
/// text as it is, and other bytes as a one-line note.
///
/// The output of `satchel request`; `satchel demo` reuses it.
struct ValuePrinter {
    /// Whether ANSI colours are used (Rainbow).
    var colors: Bool

    /// Creates a printer. With `colors`, Rainbow is told the output is a terminal.
    init(colors: Bool) {
        self.colors = colors
        if colors {
            Rainbow.outputTarget = .console
            Rainbow.enabled = true
        }
    }

    /// The text for `value`, ending with a newline (empty for no value).
    func text(for value: Value?) -> String {
        guard let value else { return "" }
        var output = ""
        append(value, indent: "", to: &output)
        return output
    }

    /// Appends `value`, each line prefixed by `indent`.
    func append(_ value: Value, indent: String, to output: inout String) {
        switch value {
        case .null:
            return
        case .string(let text):
            output += Self.indented(text.hasSuffix("\n") ? text : text + "\n", by: indent)
        case .bytes(let bytes):
            output +=
                indent + style("[\(bytes.count) bytes of binary data not shown; use --raw or --output]", .dim) + "\n"
        case .payload(let payload):
            appendPayload(payload, indent: indent, to: &output)
        default:
            output += Self.indented(highlightedJSON(value.canonicalJSON(pretty: true)) + "\n", by: indent)
        }
    }

    /// Problem details (RFC 9457) as a summary: title and status, detail, type, instance, then
    /// any extension members as JSON.
    func problemSummary(_ problem: ProblemDetails) -> String {
        var lines = [
            style("Problem: ", .red, .bold) + style(problem.title ?? "(no title)", .bold)
                + (problem.status.map { " (\($0))" } ?? "")
        ]
        if let detail = problem.detail { lines.append("  detail:   \(detail)") }
        lines.append("  type:     \(problem.type)")
        if let instance = problem.instance { lines.append("  instance: \(instance)") }
        var text = lines.joined(separator: "\n") + "\n"
        if !problem.extensions.isEmpty {
            text += Self.indented(
                highlightedJSON(Value.object(problem.extensions).canonicalJSON(pretty: true)) + "\n", by: "  ")
        }
        return text
    }

    /// Pretty JSON text with keys, strings, numbers and literals coloured (when ``colors``).
    func highlightedJSON(_ json: String) -> String {
        guard colors else { return json }
        var output = ""
        let characters = Array(json)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "\"" {
                var end = index + 1
                while end < characters.count, characters[end] != "\"" {
                    end += characters[end] == "\\" ? 2 : 1
                }
                end = min(end, characters.count - 1)
                let token = String(characters[index...end])
                var next = end + 1
                while next < characters.count, characters[next] == " " { next += 1 }
                let isKey = next < characters.count && characters[next] == ":"
                output += isKey ? style(token, .blue, .bold) : style(token, .green)
                index = end + 1
            } else if character == "-" || character.isNumber {
                var end = index
                while end < characters.count, "+-.eE0123456789".contains(characters[end]) { end += 1 }
                output += style(String(characters[index..<end]), .cyan)
                index = end
            } else if character.isLetter {
                var end = index
                while end < characters.count, characters[end].isLetter { end += 1 }
                output += style(String(characters[index..<end]), .magenta)
                index = end
            } else {
                output.append(character)
                index += 1
            }
        }
        return output
    }

    /// Styles of text on a terminal.
    enum TextStyle {
        case bold, dim, red, green, yellow, blue, magenta, cyan
    }

    /// `text` in `styles` when ``colors`` is on, else as it is.
    func style(_ text: String, _ styles: TextStyle...) -> String {
        guard colors else { return text }
        var styled = text
        for style in styles {
            switch style {
            case .bold: styled = styled.bold
            case .dim: styled = styled.dim
            case .red: styled = styled.red
            case .green: styled = styled.green
            case .yellow: styled = styled.yellow
            case .blue: styled = styled.blue
            case .magenta: styled = styled.magenta
            case .cyan: styled = styled.cyan
            }
        }
        return styled
    }

    /// `text` with every line prefixed by `indent`.
    static func indented(_ text: String, by indent: String) -> String {
        guard !indent.isEmpty else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { index, line in
            line.isEmpty ? String(line) : indent + line
        }.joined(separator: "\n")
    }
}
