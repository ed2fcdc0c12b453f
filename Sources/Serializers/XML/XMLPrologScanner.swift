// SPDX-License-Identifier: Apache-2.0
/// Finds where the root element of an XML document starts, so ``XMLParseSession`` can hold
/// the prolog back from libxml2's push parser until the prolog is complete.
///
/// libxml2 2.9's push parser takes a `<!DOCTYPE` declaration to be complete at the first `>`
/// it has, even one inside a quoted literal (`SYSTEM "a]>b"`): a chunk that ends there fails a
/// valid document with "Unfinished System or Public ID". It also reports "Document is empty"
/// for some chunkings of a body that is only whitespace, which the whole-body path reads as no
/// value. Handing it the prolog in one piece, with the first bytes of the root element, makes a
/// chunked parse give what the whole one gives.
///
/// Comments end at `-->` (not at a `>` inside them, nor at the `--` of `<!-->`), processing
/// instructions at `?>`; other declarations (`<!…>`) are skipped with their quoted literals and
/// internal subset brackets. The scan errs towards holding more: a quote that never closes (an
/// apostrophe in a comment inside the internal subset, say) holds the rest of the body, which
/// is then parsed at the end, as a whole body is.
struct XMLPrologScanner {
    private enum State {
        case outside
        case lessThan
        /// After `<!`, and after `<!-`.
        case bang(dashes: Int)
        /// Inside a comment, with the dashes just seen (at most 2).
        case comment(dashes: Int)
        /// Inside a processing instruction, after a `?` or not.
        case processingInstruction(question: Bool)
        case declaration
    }

    /// Whether a `<` followed by anything but `!` or `?` was seen outside markup.
    private(set) var rootStarted = false
    private var state = State.outside
    private var quote: UInt8?
    private var bracketDepth = 0
    /// Bytes of the head scanned so far (whole units).
    private var scanned = 0

    /// Scans the bytes of `head` (the body so far) not scanned yet.
    /// - Returns: ``rootStarted``.
    /// - Complexity: O(n) in the bytes not scanned before; nothing is scanned once the root has
    ///   started.
    mutating func scan(_ head: UnsafeRawBufferPointer, units: XMLCodeUnits) -> Bool {
        guard !rootStarted else { return true }
        let end = units.wholeUnits(head.count)
        while scanned < end {
            let character = units.ascii(in: head, at: scanned)
            scanned += units.width
            if step(character) {
                rootStarted = true
                return true
            }
        }
        return false
    }

    /// Moves the state on by one character. - Returns: whether the root element started.
    private mutating func step(_ character: UInt8) -> Bool {
        switch state {
        case .outside:
            if character == UInt8(ascii: "<") { state = .lessThan }
        case .lessThan:
            switch character {
            case UInt8(ascii: "!"): state = .bang(dashes: 0)
            case UInt8(ascii: "?"): state = .processingInstruction(question: false)
            default: return true
            }
        case .bang(let dashes):
            if character == UInt8(ascii: "-") {
                state = dashes == 1 ? .comment(dashes: 0) : .bang(dashes: 1)
            } else {
                state = .declaration
                declaration(character)
            }
        case .comment(let dashes):
            if character == UInt8(ascii: ">") && dashes >= 2 {
                state = .outside
            } else {
                state = .comment(dashes: character == UInt8(ascii: "-") ? min(dashes + 1, 2) : 0)
            }
        case .processingInstruction(let question):
            if character == UInt8(ascii: ">") && question {
                state = .outside
            } else {
                state = .processingInstruction(question: character == UInt8(ascii: "?"))
            }
        case .declaration:
            declaration(character)
        }
        return false
    }

    /// A character inside a declaration other than a comment.
    private mutating func declaration(_ character: UInt8) {
        if let open = quote {
            if character == open { quote = nil }
            return
        }
        switch character {
        case UInt8(ascii: "\""), UInt8(ascii: "'"): quote = character
        case UInt8(ascii: "["): bracketDepth += 1
        case UInt8(ascii: "]"): bracketDepth -= 1
        case UInt8(ascii: ">") where bracketDepth <= 0:
            state = .outside
            bracketDepth = 0
        default: break
        }
    }
}
