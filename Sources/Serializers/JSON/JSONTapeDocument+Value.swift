// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

extension JSONTapeDocument {
    /// The ``Value`` of the entry and everything in it, as ``JSONReader/read(_:)-([UInt8])``
    /// would read it: with duplicate names the last value wins at the first name's place, and a
    /// value a later duplicate replaces is never converted (json-c drops it while parsing).
    /// - Throws: ``SatchelError/Code/numberOutOfRange`` for a number beyond `Double`'s range,
    ///   ``SatchelError/Code/limitExceeded`` past ``Limits/maxPairs``, with the key path.
    func value(_ index: Int) throws(SatchelError) -> Value {
        do {
            return try convert(index)
        } catch {
            throw error.located
        }
    }

    /// The conversion, with ``JSONTree/Failure`` keeping the frames small (the supported depth
    /// must fit a 512 KiB thread stack, as for json-c's tree).
    private func convert(_ index: Int) throws(JSONTree.Failure) -> Value {
        let entry = entries[index]
        switch entry.kind {
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .string: return .string(string(index) ?? "")
        case .number:
            if isBigIntegerString(entry) { return .string(numberText(index)) }
            if entry.flags == 0 {
                if let signed = integer(index, as: Int64.self) { return .integer(signed) }
                if let unsigned = integer(index, as: UInt64.self) { return Value(unsigned) }
            }
            let number = Self.parseDouble(bytes(of: entry))
            guard number.isFinite else { throw outOfRange(index) }
            return .double(number)
        case .array: return try array(index)
        case .object: return try object(index)
        }
    }

    @inline(never)
    private func outOfRange(_ index: Int) -> JSONTree.Failure {
        JSONTree.Failure(
            error: SatchelError(
                .numberOutOfRange, "the number \(numberText(index)) is outside the range of Double",
                offset: Int(entries[index].start)))
    }

    @inline(never)
    private func array(_ index: Int) throws(JSONTree.Failure) -> Value {
        let entry = entries[index]
        var elements: [Value] = []
        elements.reserveCapacity(Int(entry.length))
        var position = index + 1
        var ordinal = 0
        while position < Int(entry.next) {
            let element: Value
            do {
                element = try convert(position)
            } catch {
                error.reversedPath.append(.index(ordinal))
                throw error
            }
            if !(options.removesKeysWithNullValues && element.isNull) { elements.append(element) }
            position = Int(entries[position].next)
            ordinal += 1
        }
        return .array(elements)
    }

    @inline(never)
    private func object(_ index: Int) throws(JSONTree.Failure) -> Value {
        let lastValues = effectiveMembers(index)
        if lastValues.count > maxPairs {
            throw JSONTree.Failure(
                error: .limitExceeded("maxPairs", maxPairs, "an object with \(lastValues.count) members"))
        }
        var members = ValueObject(minimumCapacity: lastValues.count)
        for (key, member) in lastValues {
            do {
                members[key] = try convert(member.value)
            } catch {
                error.reversedPath.append(.key(key))
                throw error
            }
        }
        // Nulls go after the last duplicate has won, keeping the first name's place.
        if options.removesKeysWithNullValues { members.removeAll { $0.value.isNull } }
        return .object(members)
    }
}
