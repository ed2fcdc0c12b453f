extension Sequence where Element == MultipartPart.Header {
    /// The first header named `name`, compared without regard to case.
    func first(named name: String) -> MultipartPart.Header? {
        let wanted = name.lowercased()
        return first { $0.name.lowercased() == wanted }
    }

    /// The values of every header named `name` (case-insensitive), in order.
    func values(named name: String) -> [String] {
        let wanted = name.lowercased()
        return filter { $0.name.lowercased() == wanted }.map(\.value)
    }
}
