extension Sequence<UInt8> {
    /// The bytes with ASCII letters lower-cased and every other byte unchanged: for protocol
    /// tokens (media types, hex digests), where Unicode case mapping would be wrong or wasted.
    public func asciiLowercased() -> [UInt8] {
        map(\.asciiLowercased)
    }
}

extension UInt8 {
    /// The byte with an ASCII capital letter lower-cased; every other byte unchanged.
    @inlinable public var asciiLowercased: UInt8 {
        self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z") ? self | 0x20 : self
    }
}
