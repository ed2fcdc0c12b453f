// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Decodes property-list responses, XML or binary, told apart by their bytes
/// (AFNetworking's `AFPropertyListResponseSerializer`).
///
/// Accepts `application/x-plist`, as AFNetworking. A blank body (empty, or only white space)
/// is no value, as for every serializer (``BlankBody``); AFNetworking, which hands an empty body
/// to `NSPropertyListSerialization`, fails on it instead.
public struct PropertyListResponseSerializer: TypedResponseSerializer {
    /// `"plist"`.
    public var name: String { "plist" }
    /// The acceptable media types.
    public var acceptableContentTypes: MediaRangeList

    /// `application/x-plist`, the one type AFNetworking accepts.
    public static let defaultContentTypes = MediaRangeList(accepting: [PropertyListRequestSerializer.mediaType])

    /// Creates a serializer.
    public init(acceptableContentTypes: MediaRangeList = defaultContentTypes) {
        self.acceptableContentTypes = acceptableContentTypes
    }

    /// Decodes a whole body; `nil` for a blank body.
    /// - Throws: the errors of ``PropertyListReader/read(_:)-(UnsafeRawBufferPointer)``.
    public func decode(_ body: [UInt8], contentType: MediaType?, limits: Limits) throws(SatchelError) -> Value? {
        if BlankBody.isBlank(body, ignoringWhiteSpace: true) { return nil }
        return try PropertyListReader(limits: limits).read(body)
    }

    /// Decodes a body lent as raw memory (a C caller's buffer) in place; `nil` for a blank body.
    /// - Throws: the errors of ``PropertyListReader/read(_:)-(UnsafeRawBufferPointer)``.
    public func decode(
        buffer: UnsafeRawBufferPointer, contentType: MediaType?, limits: Limits
    ) throws(SatchelError) -> Value? {
        if BlankBody.isBlank(buffer: buffer, ignoringWhiteSpace: true) { return nil }
        return try PropertyListReader(limits: limits).read(buffer)
    }

    /// Decodes an optional body: `nil` (no body at all) and a blank body are no value.
    public func decode(_ body: [UInt8]?, contentType: MediaType?, limits: Limits) throws(SatchelError) -> Value? {
        guard let body else { return nil }
        return try decode(body, contentType: contentType, limits: limits)
    }

    /// Decodes a body straight into `T` (``PropertyListReader/read(_:from:)``).
    /// - Throws: the errors of ``decode(_:contentType:limits:)-([UInt8],_,_)`` and the key path where `T` did
    ///   not fit.
    public func decode<T: Decodable>(
        _ type: T.Type, from body: [UInt8], limits: Limits = .default
    ) throws(SatchelError) -> T {
        try PropertyListReader(limits: limits).read(type, from: body)
    }

    /// Decodes a body straight into `T` (``TypedResponseSerializer``); `nil` for a blank body.
    public func decode<T: Decodable>(
        _ type: T.Type, from body: [UInt8], contentType: MediaType?, limits: Limits
    ) throws(SatchelError) -> T? {
        if BlankBody.isBlank(body, ignoringWhiteSpace: true) { return nil }
        return try PropertyListReader(limits: limits).read(type, from: body)
    }
}

extension PropertyListResponseSerializer {
    /// `application/x-plist` for a binary property list (`bplist`) or an XML document with a
    /// `<plist` tag or a `plist` DOCTYPE in its first ``Registry/sniffLength`` bytes.
    public func sniff(prefix: ArraySlice<UInt8>) -> MediaType? {
        let plist = MediaType(type: "application", subtype: "x-plist")
        if prefix.starts(with: Array("bplist".utf8)) { return plist }
        guard let start = ContentSniffer.firstSignificantIndex(of: prefix), prefix[start] == UInt8(ascii: "<") else {
            return nil
        }
        let window = prefix[start...]
        return ContentSniffer.contains("<plist", in: window) || ContentSniffer.contains("<!DOCTYPE plist", in: window)
            ? plist : nil
    }
}
