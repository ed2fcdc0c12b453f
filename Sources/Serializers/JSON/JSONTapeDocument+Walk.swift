// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

extension JSONTapeDocument {
    /// An open container: where its next element or member is.
    private struct Frame {
        let isObject: Bool
        /// The entry after the container's last descendant.
        let end: Int
        /// The next element, or the next member's name, when the text's own order is walked.
        var position: Int
        /// The (name, value) entries to walk instead, when duplicates or removed nulls changed
        /// them (an array's elements: (value, value)); `nil` for the text's own order.
        var members: [(name: Int, value: Int)]?
        var memberIndex = 0
    }

    /// Hands the document's values to `receiver` in order, as ``value(_:)`` would build them:
    /// a duplicate name keeps its first place with its last value, and
    /// ``JSONReadingOptions/removesKeysWithNullValues`` drops nulls. The walk keeps its own
    /// stack, so any depth the scanner accepted is safe on a small thread stack.
    /// - Returns: `false` when the receiver stopped the walk.
    /// - Throws: ``SatchelError/Code/numberOutOfRange`` for a number beyond `Double`'s range,
    ///   ``SatchelError/Code/limitExceeded`` past ``Limits/maxPairs``, with the byte offset (the
    ///   receiver has had the values before it).
    func walk(into receiver: some JSONValueReceiver) throws(SatchelError) -> Bool {
        var scratch: [UInt8] = []
        var stack: [Frame] = []
        var pending: Int? = 0
        while true {
            if let index = pending {
                pending = nil
                let (frame, goOn) = try emit(index, to: receiver, scratch: &scratch)
                guard goOn else { return false }
                if let frame { stack.append(frame) }
            }
            guard var top = stack.popLast() else { return true }
            var name: Int?
            if let members = top.members {
                if top.memberIndex < members.count {
                    (name, pending) = (members[top.memberIndex].name, members[top.memberIndex].value)
                    top.memberIndex += 1
                }
            } else if top.position < top.end {
                if top.isObject {
                    (name, pending) = (top.position, top.position + 1)
                    top.position = Int(entries[top.position + 1].next)
                } else {
                    pending = top.position
                    top.position = Int(entries[top.position].next)
                }
            }
            guard pending != nil else {
                guard top.isObject ? receiver.endObject() : receiver.endArray() else { return false }
                continue
            }
            stack.append(top)
            if top.isObject, let name {
                guard text(of: name, scratch: &scratch, receiver.name) else { return false }
            }
        }
    }

    /// Gives a scalar to the receiver, or starts a container and returns its frame; the `Bool`
    /// is the receiver's answer.
    private func emit(
        _ index: Int, to receiver: some JSONValueReceiver, scratch: inout [UInt8]
    ) throws(SatchelError) -> (Frame?, Bool) {
        let entry = entries[index]
        switch entry.kind {
        case .null: return (nil, receiver.null())
        case .false: return (nil, receiver.bool(false))
        case .true: return (nil, receiver.bool(true))
        case .string: return (nil, text(of: index, scratch: &scratch, receiver.string))
        case .number:
            if isBigIntegerString(entry) { return (nil, receiver.string(bytes(of: entry))) }
            if entry.flags == 0 {
                if let signed = integer(index, as: Int64.self) { return (nil, receiver.integer(signed)) }
                if let unsigned = integer(index, as: UInt64.self) { return (nil, receiver.unsignedInteger(unsigned)) }
            }
            let number = Self.parseDouble(bytes(of: entry))
            guard number.isFinite else {
                throw SatchelError(
                    .numberOutOfRange, "the number \(numberText(index)) is outside the range of Double",
                    offset: Int(entry.start))
            }
            return (nil, receiver.double(number))
        case .array:
            var frame = Frame(isObject: false, end: Int(entry.next), position: index + 1)
            if options.removesKeysWithNullValues {
                frame.members = elements(of: index).filter { entries[$0].kind != .null }.map { ($0, $0) }
            }
            return (frame, receiver.beginArray(count: frame.members?.count ?? Int(entry.length)))
        case .object:
            var frame = Frame(isObject: true, end: Int(entry.next), position: index + 1)
            var count = Int(entry.length)
            if options.removesKeysWithNullValues || hasDuplicateNames(index) {
                var members = Array(effectiveMembers(index).values)
                if members.count > maxPairs { throw tooManyMembers(members.count, index) }
                if options.removesKeysWithNullValues { members.removeAll { entries[$0.value].kind == .null } }
                frame.members = members
                count = members.count
            } else if count > maxPairs {
                throw tooManyMembers(count, index)
            }
            return (frame, receiver.beginObject(count: count))
        }
    }

    /// Calls `deliver` with the string's UTF-8: the text itself, or its escapes decoded into
    /// `scratch`.
    @inline(__always)
    private func text(
        of index: Int, scratch: inout [UInt8], _ deliver: (UnsafeBufferPointer<UInt8>) -> Bool
    ) -> Bool {
        let entry = entries[index]
        if entry.flags == 0 { return deliver(bytes(of: entry)) }
        Self.unescape(bytes(of: entry), into: &scratch)
        return scratch.withUnsafeBufferPointer(deliver)
    }

    /// The array's element entries.
    private func elements(of index: Int) -> [Int] {
        var result: [Int] = []
        var position = index + 1
        while position < Int(entries[index].next) {
            result.append(position)
            position = Int(entries[position].next)
        }
        return result
    }

    /// Whether two of the object's member names are the same text once decoded.
    private func hasDuplicateNames(_ index: Int) -> Bool {
        let entry = entries[index]
        guard entry.length > 1 else { return false }
        if !mayHaveDuplicateNames(index) { return false }
        if entry.length > 16 { return distinctMemberCount(index) < Int(entry.length) }
        var names: [Int] = []
        var name = index + 1
        while name < Int(entry.next) {
            let candidate = entries[name]
            for earlier in names {
                let other = entries[earlier]
                if candidate.flags == 0 && other.flags == 0 {
                    if nameEquals(other, bytes(of: candidate)) { return true }
                } else if string(earlier) == string(name) {
                    return true
                }
            }
            names.append(name)
            name = Int(entries[name + 1].next)
        }
        return false
    }

    /// A quick sieve before comparing names: `false` when no two names share their length and
    /// first and last bytes (a bit each in a 64-bit mask) and none has an escape, which is how
    /// almost every object is.
    private func mayHaveDuplicateNames(_ index: Int) -> Bool {
        var seen: UInt64 = 0
        var name = index + 1
        let base = text.baseAddress!
        while name < Int(entries[index].next) {
            let entry = entries[name]
            if entry.flags != 0 { return true }
            let length = Int(entry.length)
            var mix = UInt64(truncatingIfNeeded: length) &* 0x9E37_79B9
            if length > 0 {
                mix ^= UInt64(base[Int(entry.start)]) &* 31 ^ UInt64(base[Int(entry.start) + length - 1]) &* 131
            }
            let bit: UInt64 = 1 << (mix % 64)
            if seen & bit != 0 { return true }
            seen |= bit
            name = Int(entries[name + 1].next)
        }
        return false
    }

    private func tooManyMembers(_ count: Int, _ index: Int) -> SatchelError {
        .limitExceeded(
            "maxPairs", maxPairs, "an object with \(count) members", offset: Int(entries[index].start))
    }
}
