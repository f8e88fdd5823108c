import CCrypto

/// Base64 (RFC 4648, with padding) through libcrypto's EVP encoder.
public enum Base64 {
    /// Encodes bytes as standard base64 with padding.
    public static func encode(_ data: some Collection<UInt8>) -> String {
        let data = Array(data)
        var out = [UInt8](repeating: 0, count: 4 * ((data.count + 2) / 3) + 1)
        let n = data.withUnsafeBufferPointer { EVP_EncodeBlock(&out, $0.baseAddress, Int32($0.count)) }
        return String(decoding: out.prefix(Int(n)), as: UTF8.self)
    }

    /// Decodes standard base64 with padding; nil when the text is not valid base64.
    public static func decode(_ text: String) -> [UInt8]? {
        let input = Array(text.utf8)
        guard input.count % 4 == 0 else { return nil }
        if input.isEmpty { return [] }
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        let padding = input.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        guard padding <= 2, input.dropLast(padding).allSatisfy(alphabet.contains) else { return nil }
        var out = [UInt8](repeating: 0, count: input.count / 4 * 3)
        let n = input.withUnsafeBufferPointer { EVP_DecodeBlock(&out, $0.baseAddress, Int32($0.count)) }
        guard n >= 0 else { return nil }
        return Array(out.prefix(Int(n) - padding))
    }
}
