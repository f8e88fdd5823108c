/// Random identifiers for rows whose id the caller did not choose.
enum IdentifierGenerator {
    private static let alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz".utf8)

    /// A random id of `length` characters from a 32-symbol alphabet (5 bits each; 20 characters are 100 bits).
    static func make(length: Int = 20) -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 0, count: length)
        for index in bytes.indices {
            bytes[index] = alphabet[Int(generator.next() & 31)]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
