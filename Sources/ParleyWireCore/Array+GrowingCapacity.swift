extension Array {
    /// Makes room for at least `minimumCapacity` elements, growing geometrically.
    ///
    /// `reserveCapacity` allocates exactly what it is asked for, so calling it before each of
    /// many appends (`count + n`) reallocates and copies the array every time.
    package mutating func reserveGrowing(toAtLeast minimumCapacity: Int) {
        guard capacity < minimumCapacity else { return }
        reserveCapacity(Swift.max(minimumCapacity, capacity * 2))
    }
}
