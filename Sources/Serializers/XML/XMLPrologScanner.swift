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
/// The scan is deliberately simple and errs towards holding more: declarations and processing
/// instructions (`<!…>`, `<?…?>`) are skipped with their quoted literals and internal subset
/// brackets; a quote that never closes (an apostrophe in a comment, say) holds the rest of the
/// body, which is then parsed at the end, as a whole body is.
struct XMLPrologScanner {
    /// Whether a `<` followed by anything but `!` or `?` was seen outside a declaration.
    private(set) var rootStarted = false
    private var afterLessThan = false
    private var inDeclaration = false
    private var quote: UInt8?
    private var bracketDepth = 0

    /// Scans the next bytes of the body.
    /// - Returns: ``rootStarted``.
    /// - Complexity: O(n) in the bytes scanned; nothing is scanned once the root has started.
    mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !rootStarted else { return true }
        for byte in bytes {
            if inDeclaration {
                if let open = quote {
                    if byte == open { quote = nil }
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "'"): quote = byte
                case UInt8(ascii: "["): bracketDepth += 1
                case UInt8(ascii: "]"): bracketDepth -= 1
                case UInt8(ascii: ">") where bracketDepth <= 0:
                    inDeclaration = false
                    bracketDepth = 0
                default: break
                }
            } else if afterLessThan {
                afterLessThan = false
                guard byte == UInt8(ascii: "!") || byte == UInt8(ascii: "?") else {
                    rootStarted = true
                    return true
                }
                inDeclaration = true
            } else if byte == UInt8(ascii: "<") {
                afterLessThan = true
            }
        }
        return false
    }
}
