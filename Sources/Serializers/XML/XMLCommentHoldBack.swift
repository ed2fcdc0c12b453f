// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Keeps libxml2's push parser from seeing the start of a comment like `<!-->…-->` without
/// its end.
///
/// libxml2 2.9's push parser waits for a comment's `-->` before parsing it, but looks for it
/// from the comment's `<`, so the `--` of the opener and the `>` after it (`<!-->`, `<!--->`:
/// valid comments whose text starts with `>` or `->`) pass for the end: a chunk that stops inside
/// such a comment fails a valid document with "Comment not terminated". The hold-back passes the
/// bytes on up to such an opener (or up to what may become one at the end of the bytes so far)
/// and keeps the rest until the comment's real end has arrived or the input ends. Text that only
/// looks like an opener (inside CDATA, say) is held the same way, which only delays it. The
/// bytes passed on always end on a whole unit (``XMLCodeUnits``).
struct XMLCommentHoldBack {
    private static let opener: [UInt8] = Array("<!--".utf8)

    /// Bytes not passed on yet: from a possible opener on, or a partial unit.
    private var held: [UInt8] = []
    /// When ``held`` starts with an opener: where the search for its `-->` resumes.
    private var searchedUpTo = 0

    /// Takes the next bytes of the body.
    /// - Parameter deliver: Called with the bytes libxml2 may have now, if any.
    /// - Complexity: O(n) in the bytes taken, over the whole body.
    mutating func take(
        _ chunk: UnsafeRawBufferPointer, units: XMLCodeUnits,
        deliver: (UnsafeRawBufferPointer) throws(SatchelError) -> Void
    ) throws(SatchelError) {
        if held.isEmpty {
            let cut = try Self.deliverSafePrefix(of: chunk, units: units, resumingAt: 0, deliver: deliver)
            held = Array(chunk[cut.offset...])
            searchedUpTo = cut.searchedUpTo
        } else {
            held.append(contentsOf: chunk)
            let resume = searchedUpTo
            let cut = try held.withUnsafeBufferPointer { (held) throws(SatchelError) in
                try Self.deliverSafePrefix(
                    of: UnsafeRawBufferPointer(held), units: units, resumingAt: resume, deliver: deliver)
            }
            held.removeFirst(cut.offset)
            searchedUpTo = cut.searchedUpTo
        }
    }

    /// Passes on everything held (the input has ended).
    mutating func flush(deliver: (UnsafeRawBufferPointer) throws(SatchelError) -> Void) throws(SatchelError) {
        guard !held.isEmpty else { return }
        let bytes = held
        held = []
        searchedUpTo = 0
        try bytes.withUnsafeBufferPointer { (bytes) throws(SatchelError) in try deliver(UnsafeRawBufferPointer(bytes)) }
    }

    /// Delivers the safe prefix of `bytes` (what was held and the new bytes).
    /// - Returns: Where the bytes still held start, and where the search for the `-->` of the
    ///   opener there resumes next time (relative to that start).
    private static func deliverSafePrefix(
        of bytes: UnsafeRawBufferPointer, units: XMLCodeUnits, resumingAt resume: Int,
        deliver: (UnsafeRawBufferPointer) throws(SatchelError) -> Void
    ) throws(SatchelError) -> (offset: Int, searchedUpTo: Int) {
        let opener = firstUnsafeOpener(in: bytes, units: units, resumingAt: resume)
        let offset = opener ?? units.wholeUnits(bytes.count)
        if offset > 0 { try deliver(UnsafeRawBufferPointer(rebasing: bytes[..<offset])) }
        // The `-->` was looked for up to the end; it may still straddle it.
        let searched = opener == nil ? 0 : max(0, units.wholeUnits(bytes.count - offset) - 2 * units.width)
        return (offset, searched)
    }

    /// Where the first opener starts that libxml2 could take for a whole comment before its end
    /// is in `bytes`: `<!--` followed by `>` or `->` with no `-->` after those four characters,
    /// or the bytes ending inside what may still become such an opener. `nil` when there is none.
    /// - Parameter resume: For an opener at offset 0, where the search for its `-->` may start.
    static func firstUnsafeOpener(in bytes: UnsafeRawBufferPointer, units: XMLCodeUnits, resumingAt resume: Int) -> Int?
    {
        let width = units.width
        let end = units.wholeUnits(bytes.count)
        var start = 0
        while let candidate = nextLessThanBang(in: bytes, units: units, from: start, end: end) {
            start = candidate
            var matched = 1
            while matched < 4, start + matched * width < end,
                units.ascii(in: bytes, at: start + matched * width) == Self.opener[matched]
            {
                matched += 1
            }
            if matched < 4 {
                if start + matched * width >= end { return start }
                start += width
                continue
            }
            // `<!--` at `start`: misread only when its text starts with `>` or `->`.
            let text = start + 4 * width
            guard text < end else { return start }
            var misread = units.ascii(in: bytes, at: text) == UInt8(ascii: ">")
            if units.ascii(in: bytes, at: text) == UInt8(ascii: "-") {
                guard text + width < end else { return start }
                misread = units.ascii(in: bytes, at: text + width) == UInt8(ascii: ">")
            }
            guard misread else {
                start = text
                continue
            }
            guard closing(in: bytes, units: units, from: start == 0 ? max(text, resume) : text, end: end) != nil else {
                return start
            }
            // Its end is in. The scan goes on inside it: what looked like an opener may be text
            // (in CDATA) and the `-->` found the `--` and `>` of a real opener after it.
            start = text
        }
        // Openers are found at their `!`; a `<` alone at the end may still become one.
        if end >= width, units.ascii(in: bytes, at: end - width) == UInt8(ascii: "<") { return end - width }
        return nil
    }

    /// The offset of the next `<` followed by `!` at or after `offset`. One-byte units are
    /// found by `memchr` on the `!`, which is rare in XML (a `<` is not).
    private static func nextLessThanBang(
        in bytes: UnsafeRawBufferPointer, units: XMLCodeUnits, from offset: Int, end: Int
    ) -> Int? {
        let width = units.width
        guard let base = bytes.baseAddress else { return nil }
        var index = offset + width
        while index < end {
            if width == 1 {
                guard let hit = memchr(base + index, Int32(UInt8(ascii: "!")), end - index) else { return nil }
                index = base.distance(to: UnsafeRawPointer(hit))
            } else if units.ascii(in: bytes, at: index) != UInt8(ascii: "!") {
                index += width
                continue
            }
            if units.ascii(in: bytes, at: index - width) == UInt8(ascii: "<") { return index - width }
            index += width
        }
        return nil
    }

    /// The offset just past the first `-->` at or after `offset`, if there is one before `end`.
    /// - Complexity: O(n) in the bytes from `offset` to that `-->`; the `-->` found from one
    ///   opener is at most the `--` and `>` of the next one, so the searches of a scan cover the
    ///   bytes about once.
    private static func closing(
        in bytes: UnsafeRawBufferPointer, units: XMLCodeUnits, from offset: Int, end: Int
    ) -> Int? {
        let width = units.width
        var index = offset
        while index + 2 * width < end {
            if units.ascii(in: bytes, at: index) == UInt8(ascii: "-"),
                units.ascii(in: bytes, at: index + width) == UInt8(ascii: "-"),
                units.ascii(in: bytes, at: index + 2 * width) == UInt8(ascii: ">")
            {
                return index + 3 * width
            }
            index += width
        }
        return nil
    }
}
