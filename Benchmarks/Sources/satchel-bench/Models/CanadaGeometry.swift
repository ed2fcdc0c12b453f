// SPDX-License-Identifier: Apache-2.0
/// `canada.json`: a GeoJSON feature collection holding one polygon, the outline of Canada
/// (480 rings, 55 563 points). Almost all of it is floating-point numbers.
///
/// Covers every member of the file.
struct CanadaGeometry: Codable, Equatable, Sendable {
    /// `"FeatureCollection"`.
    var type: String
    /// The features (one).
    var features: [Feature]

    /// A GeoJSON feature.
    struct Feature: Codable, Equatable, Sendable {
        /// `"Feature"`.
        var type: String
        var properties: Properties
        var geometry: Geometry
    }

    /// A feature's properties.
    struct Properties: Codable, Equatable, Sendable {
        var name: String
    }

    /// A polygon: rings of `[longitude, latitude]` points.
    struct Geometry: Codable, Equatable, Sendable {
        /// `"Polygon"`.
        var type: String
        var coordinates: [[[Double]]]
    }
}
