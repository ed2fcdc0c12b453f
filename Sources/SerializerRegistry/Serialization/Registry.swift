// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import Synchronization

/// The table of request and response serializers, keyed by media type, with priorities
/// (Sources/Satchel/Satchel.docc/RegistryAndSerializers.md). Thread-safe: registration and lookup may happen from any thread.
///
/// A response is decoded by the serializer whose acceptable types match its Content-Type most
/// specifically (exact, then `*+suffix`, then `type/*`, then `*/*`); among equally specific
/// matches the higher priority wins, then the later registration. `Serializers` adds
/// `Registry.standard()` with every built-in serializer.
public final class Registry: Sendable {
    /// Identifies a registration, for ``unregister(_:)``.
    public struct Registration: Sendable, Hashable {
        let id: Int
    }

    struct ResponseEntry {
        let registration: Registration
        let serializer: any ResponseSerializer
        let mediaTypes: MediaRangeList
        let priority: Int
    }

    struct RequestEntry {
        let registration: Registration
        let serializer: any RequestSerializer
        let mediaTypes: [MediaType]
        let priority: Int
    }

    struct State {
        var responseEntries: [ResponseEntry] = [] {
            didSet {
                acceptField = nil
                chosenEntries.removeAll()
            }
        }
        /// ``Registry/acceptField``, kept until the response serializers change.
        var acceptField: HTTPField?
        /// The entry ``Registry/responseEntry(for:)`` chose per Content-Type, kept until the
        /// response serializers change (a response's look-up walked every range of every
        /// serializer: about 20 000 instructions per request).
        var chosenEntries: [MediaType: ResponseEntry?] = [:]
        var requestEntries: [RequestEntry] = []
        var nextID = 0
        var limits: Limits
        var validation: ResponseValidation
    }

    private let state: Mutex<State>

    /// Creates an empty registry.
    public init(limits: Limits = .default, validation: ResponseValidation = ResponseValidation()) {
        state = Mutex(State(limits: limits, validation: validation))
    }

    /// The limits every serializer obeys when decoding through this registry.
    public var limits: Limits {
        get { state.withLock { $0.limits } }
        set { state.withLock { $0.limits = newValue } }
    }

    /// Status (and optionally Content-Type) validation for ``decode(response:body:)``.
    public var validation: ResponseValidation {
        get { state.withLock { $0.validation } }
        set { state.withLock { $0.validation = newValue } }
    }

    /// Registers a response serializer.
    ///
    /// - Parameters:
    ///   - serializer: The serializer.
    ///   - mediaTypes: The types it is chosen for; by default its acceptable content types.
    ///   - priority: Breaks ties between equally specific matches; higher wins.
    /// - Returns: A token for ``unregister(_:)``.
    @discardableResult
    public func register(
        _ serializer: any ResponseSerializer, for mediaTypes: MediaRangeList? = nil, priority: Int = 0
    ) -> Registration {
        state.withLock { state in
            let registration = Registration(id: state.nextID)
            state.nextID += 1
            state.responseEntries.append(
                ResponseEntry(
                    registration: registration, serializer: serializer,
                    mediaTypes: mediaTypes ?? serializer.acceptableContentTypes, priority: priority))
            return registration
        }
    }

    /// Registers a request serializer for the media types it writes.
    ///
    /// - Parameters:
    ///   - serializer: The serializer.
    ///   - mediaTypes: The types it is chosen for; by default its ``RequestSerializer/contentType``.
    ///   - priority: Breaks ties; higher wins.
    /// - Returns: A token for ``unregister(_:)``.
    @discardableResult
    public func register(
        _ serializer: any RequestSerializer, for mediaTypes: [MediaType]? = nil, priority: Int = 0
    ) -> Registration {
        state.withLock { state in
            let registration = Registration(id: state.nextID)
            state.nextID += 1
            state.requestEntries.append(
                RequestEntry(
                    registration: registration, serializer: serializer,
                    mediaTypes: mediaTypes ?? [serializer.contentType], priority: priority))
            return registration
        }
    }

    /// Removes a registration. Returns whether it was registered.
    @discardableResult
    public func unregister(_ registration: Registration) -> Bool {
        state.withLock { state in
            let before = state.responseEntries.count + state.requestEntries.count
            state.responseEntries.removeAll { $0.registration == registration }
            state.requestEntries.removeAll { $0.registration == registration }
            return state.responseEntries.count + state.requestEntries.count < before
        }
    }

    /// The most Content-Types whose chosen serializer is kept.
    package static let chosenEntriesLimit = 64

    /// The response serializer chosen for `contentType`, or `nil` when none accepts it.
    public func responseSerializer(for contentType: MediaType) -> (any ResponseSerializer)? {
        responseEntry(for: contentType)?.serializer
    }

    /// The registration chosen for `contentType`: its serializer and the ranges it was
    /// registered for.
    func responseEntry(for contentType: MediaType) -> (serializer: any ResponseSerializer, mediaTypes: MediaRangeList)?
    {
        state.withLock { state in
            if let chosen = state.chosenEntries[contentType] { return chosen.map { ($0.serializer, $0.mediaTypes) } }
            var best: (rank: (Int, Int, Int), entry: ResponseEntry)?
            for entry in state.responseEntries {
                // The most specific range of this entry that matches decides (q=0 excludes).
                var matched: MediaRangeList.Range?
                for range in entry.mediaTypes.ranges where range.mediaType.matches(contentType) {
                    if let current = matched, current.mediaType.specificity >= range.mediaType.specificity { continue }
                    matched = range
                }
                guard let matched, matched.quality > 0 else { continue }
                let rank = (matched.mediaType.specificity, entry.priority, entry.registration.id)
                if let current = best, current.rank >= rank { continue }
                best = (rank, entry)
            }
            // Bounded: Content-Types with ever-changing parameters cannot grow it without end.
            if state.chosenEntries.count >= Self.chosenEntriesLimit { state.chosenEntries.removeAll() }
            state.chosenEntries[contentType] = .some(best?.entry)
            return best.map { ($0.entry.serializer, $0.entry.mediaTypes) }
        }
    }

    /// The request serializer registered for `mediaType` (matched as a pattern against the
    /// registered types, or the registered types against it), or `nil`.
    ///
    /// The most specific registered type wins, then the higher priority, then the later
    /// registration.
    public func requestSerializer(for mediaType: MediaType) -> (any RequestSerializer)? {
        state.withLock { state in
            var best: (rank: (Int, Int, Int), serializer: any RequestSerializer)?
            for entry in state.requestEntries {
                let specificity = entry.mediaTypes
                    .filter { mediaType.matches($0) || $0.matches(mediaType) }
                    .map(\.specificity).max()
                guard let specificity else { continue }
                let rank = (specificity, entry.priority, entry.registration.id)
                if let current = best, current.rank >= rank { continue }
                best = (rank, entry.serializer)
            }
            return best?.serializer
        }
    }

    /// `parameters` as a query string, written by the registered
    /// `application/x-www-form-urlencoded` request serializer (AFNetworking's rules with the
    /// standard registry): how the transport puts parameters next to a body it was given.
    /// - Throws: ``SatchelError/Code/unacceptableContentType`` when no registered form serializer
    ///   writes query strings; the serializer's error otherwise.
    public func queryString(from parameters: Value) throws(SatchelError) -> String {
        guard let serializer = requestSerializer(for: .formURLEncoded) as? any QueryStringSerializer else {
            throw SatchelError(
                .unacceptableContentType,
                "no registered request serializer writes query strings (application/x-www-form-urlencoded)")
        }
        return try serializer.queryString(from: parameters)
    }

    /// How many of a body's first bytes ``sniff(_:)`` shows the serializers.
    public static let sniffLength = 1024

    /// The media type a body's first bytes show, asking the registered response serializers in
    /// order of precedence (higher priority first, then later registrations first, so a plugin
    /// registered after the built-in serializers is asked before them); the first answer wins.
    ///
    /// - Parameter body: The body, or its start.
    /// - Returns: The recognised type, or `nil` when no serializer recognises the bytes.
    public func sniff(_ body: [UInt8]) -> MediaType? {
        guard !body.isEmpty else { return nil }
        let prefix = body.prefix(Self.sniffLength)
        for serializer in orderedResponseSerializers() {
            if let type = serializer.sniff(prefix: prefix) { return type }
        }
        return nil
    }

    /// The names of the registered response serializers, best priority first.
    public var responseSerializerNames: [String] {
        orderedResponseSerializers().map(\.name)
    }

    /// The response serializers in order of precedence: higher priority first, then later
    /// registrations first.
    private func orderedResponseSerializers() -> [any ResponseSerializer] {
        state.withLock { state in
            state.responseEntries.sorted { ($0.priority, $0.registration.id) > ($1.priority, $1.registration.id) }
                .map(\.serializer)
        }
    }

    /// A short `Accept` header: one media range per registered response serializer, highest
    /// priority first — its first range that no range listed before it covers, or `type/*` when
    /// all of its types share one top-level type other than `application` (`image/*` for the
    /// image serializer's eight).
    /// Structured-suffix patterns (`application/*+json`) and `*/subtype` are never listed, as
    /// servers do not understand them, nor `q=0` exclusions. The standard registry's is
    /// `application/json, application/x-www-form-urlencoded, multipart/*, text/*, …`: what it
    /// decodes, in about 200 bytes rather than every alias (`text/json`, `image/x-bmp`, …).
    ///
    /// - Complexity: O(1) after the first call; computed again after a response serializer is
    ///   registered or unregistered.
    public var acceptHeader: String { acceptField.value }

    /// ``acceptHeader`` as a field, made (and its value checked) once: a session adds it to
    /// every request that names no `Accept`.
    package var acceptField: HTTPField {
        state.withLock { state in
            if let cached = state.acceptField { return cached }
            let field = HTTPField(name: .accept, value: Self.acceptHeader(for: state.responseEntries))
            state.acceptField = field
            return field
        }
    }

    private static func acceptHeader(for responseEntries: [ResponseEntry]) -> String {
        var seen = Set<MediaType>()
        var types: [MediaType] = []
        let entries = responseEntries.sorted {
            ($0.priority, -$0.registration.id) > ($1.priority, -$1.registration.id)
        }
        for entry in entries {
            let listable = entry.mediaTypes.ranges.filter { range in
                let type = range.mediaType
                return range.quality > 0 && !type.subtype.hasPrefix("*+") && !(type.type == "*" && type.subtype != "*")
            }.map(\.mediaType)
            guard let first = listable.first else { continue }
            // `application/*` would claim every format there is (PDF, archives): only media
            // families such as `image/*` or `text/*` are summed up.
            let oneType =
                listable.count > 1 && first.type != "application" && listable.allSatisfy { $0.type == first.type }
            let candidates = oneType ? [MediaType(type: first.type, subtype: "*")] : listable
            // Covered: listed itself, or under a listed `type/*` or `*/*`.
            let covered = { (type: MediaType) in
                seen.contains(type) || seen.contains(MediaType(type: type.type, subtype: "*"))
                    || seen.contains(MediaType(type: "*", subtype: "*"))
            }
            if let type = candidates.first(where: { !covered($0) }) {
                seen.insert(type)
                types.append(type)
            }
        }
        return MediaRangeList(accepting: types).description
    }
}
