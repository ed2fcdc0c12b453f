// SPDX-License-Identifier: Apache-2.0
import Satchel

extension FixtureEndpoints {
    /// `/json`: ``FixtureDocument/value`` by the JSON serializer.
    func json() -> FixtureResponse {
        encoded(FixtureDocument.value, as: JSONRequestSerializer(writingOptions: Self.prettyJSON))
    }

    /// `/xml`: ``FixtureDocument/value`` by the XML serializer (`<fixture>` root).
    func xml() -> FixtureResponse {
        encoded(FixtureDocument.value, as: XMLRequestSerializer())
    }

    /// `/plist`, `/plist-binary`: ``FixtureDocument/propertyListValue`` by the property-list
    /// serializer.
    func propertyList(format: PropertyListFormat) -> FixtureResponse {
        encoded(FixtureDocument.propertyListValue, as: PropertyListRequestSerializer(format: format))
    }
}
