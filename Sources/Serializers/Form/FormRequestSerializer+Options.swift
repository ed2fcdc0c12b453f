// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

extension FormRequestSerializer {
    /// How a ``FormRequestSerializer`` writes parameters and where it puts them.
    ///
    /// The encoding options of ``FormWriter/Options`` are reachable directly:
    /// `options.arrayStyle = .indexed` sets `options.encoding.arrayStyle`.
    @dynamicMemberLookup
    public struct Options: Sendable {
        /// How keys and values are written: array style, bool style, space encoding, key sorting
        /// and depth limit. AFNetworking's behaviour by default.
        public var encoding: FormWriter.Options

        /// Where parameters go; ``Placement/automatic`` by default.
        public var placement: Placement

        /// The methods whose parameters go into the query string under
        /// ``Placement/automatic``: GET, HEAD and DELETE by default (AFNetworking's
        /// `HTTPMethodsEncodingParametersInURI`).
        public var methodsEncodingParametersInURI: Set<HTTPRequest.Method>

        /// Replaces the built-in encoding for both query and body (AFNetworking's
        /// `setQueryStringSerializationWithBlock:`); receives the parameters as given and returns
        /// the already-escaped query string. `nil` by default.
        public var queryStringSerializer: (@Sendable (Value) throws -> String)?

        /// Creates options; every argument defaults to AFNetworking's behaviour.
        ///
        /// - Parameters:
        ///   - encoding: How keys and values are written.
        ///   - placement: Where parameters go.
        ///   - methodsEncodingParametersInURI: The methods whose parameters go into the query
        ///     under automatic placement.
        ///   - queryStringSerializer: A closure that replaces the built-in encoding.
        public init(
            encoding: FormWriter.Options = FormWriter.Options(),
            placement: Placement = .automatic,
            methodsEncodingParametersInURI: Set<HTTPRequest.Method> = .encodingParametersInURI,
            queryStringSerializer: (@Sendable (Value) throws -> String)? = nil
        ) {
            self.encoding = encoding
            self.placement = placement
            self.methodsEncodingParametersInURI = methodsEncodingParametersInURI
            self.queryStringSerializer = queryStringSerializer
        }

        /// Reads or writes an option of ``encoding``, such as `arrayStyle` or `sortsKeys`.
        public subscript<Property>(dynamicMember keyPath: WritableKeyPath<FormWriter.Options, Property>) -> Property {
            get { encoding[keyPath: keyPath] }
            set { encoding[keyPath: keyPath] = newValue }
        }
    }
}
