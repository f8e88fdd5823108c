extension Sequence<UInt8> {
    /// The bytes with ASCII letters lower-cased and every other byte unchanged: for protocol
    /// tokens (media types, hex digests), where Unicode case mapping would be wrong or wasted.
    public func asciiLowercased() -> [UInt8] {
        map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }
    }
}
