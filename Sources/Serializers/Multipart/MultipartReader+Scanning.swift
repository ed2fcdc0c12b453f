// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The state machine: preamble, delimiter lines, headers (see `MultipartReader+Headers.swift`),
/// bodies and epilogue.
extension MultipartReader {
    func process(_ bytes: UnsafePointer<UInt8>, count: Int) throws(SatchelError) {
        var index = 0
        while index < count {
            switch state {
            case .preamble:
                recordFirstLine(bytes, from: index, to: count)
                if let end = try scan(bytes, from: index, to: count, emit: false) {
                    index = end
                    state = .boundaryLine(.start)
                } else {
                    index = count
                }
            case .body:
                if let end = try scan(bytes, from: index, to: count, emit: true) {
                    try completePart()
                    index = end
                    state = .boundaryLine(.start)
                } else {
                    index = count
                }
            case .boundaryLine(let step):
                try boundaryLine(step, byte: bytes[index], offset: offset(of: index))
                index += 1
            case .headers:
                index = try readHeaders(bytes, from: index, to: count)
            case .epilogue:
                index = count
            }
        }
        consumed += count
    }

    /// Looks for the delimiter in `bytes[start..<end]`, continuing a match begun in an earlier
    /// chunk. Bytes that cannot be part of a delimiter go to the body when `emit` is set.
    ///
    /// - Returns: The index just past the delimiter, or `nil` when the chunk was consumed (a
    ///   partial match at its end is remembered in ``matched``).
    private func scan(
        _ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int, emit: Bool
    ) throws(SatchelError) -> Int? {
        var start = start
        let length = delimiter.count
        if matched > 0 {
            let wanted = min(length - matched, end - start)
            let continues = delimiter.withUnsafeBufferPointer {
                memcmp(bytes + start, $0.baseAddress! + matched, wanted) == 0
            }
            if continues {
                if matched + wanted == length {
                    if assumed > 0 && emit {
                        try boundaryAtBodyStart(offset: offset(of: start + wanted) - length + assumed)
                    }
                    matched = 0
                    assumed = 0
                    pendingCarriageReturn = false
                    return start + wanted
                }
                matched += wanted
                return nil
            }
            // No delimiter starts inside the held bytes: it begins with a line break, and a
            // boundary has none. Held bytes that were really in the input are content.
            if emit && matched > assumed {
                let held = Array(delimiter[assumed..<matched])
                try held.withUnsafeBufferPointer { (held) throws(SatchelError) in
                    try emitBody(held.baseAddress!, count: held.count)
                }
            }
            matched = 0
            assumed = 0
        }
        let first = delimiter[0]
        var position = start
        while position < end {
            guard let hit = memchr(bytes + position, Int32(first), end - position) else { break }
            let found = UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - bytes
            let available = min(length, end - found)
            let matches = delimiter.withUnsafeBufferPointer { memcmp(bytes + found, $0.baseAddress!, available) == 0 }
            if matches {
                if emit { try emitBody(bytes + start, count: found - start) }
                start = found
                if available == length {
                    pendingCarriageReturn = false
                    return found + length
                }
                matched = available
                return nil
            }
            position = found + 1
        }
        if emit { try emitBody(bytes + start, count: end - start) }
        return nil
    }

    /// Adds bytes to the current part's body; with bare line feeds a final CR is held back, since
    /// it belongs to the delimiter when one follows.
    private func emitBody(_ bytes: UnsafePointer<UInt8>, count: Int) throws(SatchelError) {
        guard count > 0, accumulator != nil else { return }
        if acceptsBareLineFeeds {
            if pendingCarriageReturn {
                pendingCarriageReturn = false
                var carriageReturn: UInt8 = 0x0D
                try accumulator!.append(&carriageReturn, count: 1)
            }
            if bytes[count - 1] == 0x0D {
                pendingCarriageReturn = true
                try accumulator!.append(bytes, count: count - 1)
                return
            }
        }
        try accumulator!.append(bytes, count: count)
    }

    /// One byte of the rest of a delimiter's line: `--` (the close delimiter), transport
    /// padding, then CRLF.
    private func boundaryLine(_ step: BoundaryLine, byte: UInt8, offset: Int) throws(SatchelError) {
        let space = byte == 0x20 || byte == 0x09
        switch step {
        case .start where byte == UInt8(ascii: "-"):
            state = .boundaryLine(.dash)
        case .dash where byte == UInt8(ascii: "-"):
            state = .epilogue
        case .dash:
            throw SatchelError(
                .syntaxError,
                "the boundary before \(partName) is followed by \"-\" and \(describe(byte)) instead of \"--\" or a line break",
                offset: offset)
        case .start where space, .padding where space:
            state = .boundaryLine(.padding)
        case .start where byte == 0x0D, .padding where byte == 0x0D:
            state = .boundaryLine(.carriageReturn)
        case .carriageReturn where byte == 0x0A:
            try beginPart(at: offset + 1)
        case .start where byte == 0x0A, .padding where byte == 0x0A:
            guard acceptsBareLineFeeds else {
                throw SatchelError(
                    .syntaxError,
                    "the boundary line before \(partName) ends with a bare LF (the reader accepts CRLF only)",
                    offset: offset)
            }
            try beginPart(at: offset + 1)
        case .carriageReturn:
            throw SatchelError(
                .syntaxError, "the boundary line before \(partName) has a CR not followed by LF", offset: offset - 1)
        default:
            throw SatchelError(
                .syntaxError,
                "the boundary \(delimiterText) before \(partName) is followed by \(describe(byte)); "
                    + "a delimiter must end its line (is the body's boundary longer?)",
                offset: offset)
        }
    }

    private func beginPart(at start: Int) throws(SatchelError) {
        if partIndex >= limits.maxParts {
            throw SatchelError.limitExceeded(
                "maxParts", limits.maxParts, "\(partName): a multipart body of more than \(limits.maxParts) parts",
                offset: start)
        }
        section = HeaderSection(start: start)
        state = .headers
    }

    func beginBody(_ head: PartHead) throws(SatchelError) {
        self.head = head
        accumulator = PartBodyAccumulator(
            threshold: options.memoryThreshold, directory: options.temporaryDirectory)
        state = .body
        // A body that starts with "--boundary" is looked for as if a line break came first.
        matched = acceptsBareLineFeeds ? 1 : 2
        assumed = matched
    }

    /// A part's body starts with `--boundary`. RFC 2046's grammar reads that two ways: a part
    /// with no body whose delimiter lacks its CR LF (Go's mime/multipart and werkzeug read it so),
    /// or content that happens to start with the boundary (Python's multipart). Strict parsing
    /// refuses the ambiguity; lenient parsing takes it as the end of an empty part.
    private func boundaryAtBodyStart(offset: Int) throws(SatchelError) {
        guard !options.lenient else { return }
        throw SatchelError(
            .syntaxError,
            "the body of \(partName) starts with the boundary \(delimiterText) (after the blank line, without its own "
                + "line break): an empty part or content holding the boundary? (use lenient mode to read an empty part)",
            offset: offset)
    }

    private func completePart() throws(SatchelError) {
        guard let head, var accumulator else { return }
        let body = try accumulator.finish()
        self.head = nil
        self.accumulator = nil
        completed.append(Part(head: head, body: body))
        partIndex += 1
    }
}
