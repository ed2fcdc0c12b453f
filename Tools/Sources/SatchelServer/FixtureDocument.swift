// SPDX-License-Identifier: Apache-2.0
import Satchel

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The document `/json`, `/xml` and `/plist` serve, the same every time.
enum FixtureDocument {
    /// The document: strings (one non-ASCII), integers, a double, booleans, an array and a
    /// nested object, under one root key (which names the XML root element).
    static let value: Value = [
        "fixture": [
            "name": "Satchel",
            "greeting": "Grüße, 世界",
            "count": 3,
            "ratio": 0.25,
            "enabled": true,
            "formats": ["json", "xml", "plist"],
            "owner": ["id": 42, "login": "satchel"],
        ]
    ]

    /// The property-list form: the document plus a date (2026-01-02T03:04:05Z) and 8 bytes of
    /// data, which property lists have and JSON lacks.
    static var propertyListValue: Value {
        guard case .object(var root) = value, case .object(var fixture)? = root["fixture"] else { return value }
        fixture["created"] = .date(Date(timeIntervalSince1970: 1_767_323_045))
        fixture["thumbnail"] = .bytes([0x89, 0x50, 0x4E, 0x47, 0x00, 0x01, 0xFE, 0xFF])
        root["fixture"] = .object(fixture)
        return .object(root)
    }
}
