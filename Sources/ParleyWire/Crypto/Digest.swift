import CCrypto

/// Hashes, HMACs and random bytes from libcrypto; nothing here is hand-written crypto.
public enum Digest {
    /// SHA-1 of the bytes (20 bytes). Used by the WebSocket handshake only.
    public static func sha1(_ data: some Collection<UInt8>) -> [UInt8] { evpDigest(EVP_sha1(), data) }

    /// SHA-256 of the bytes (32 bytes).
    public static func sha256(_ data: some Collection<UInt8>) -> [UInt8] { evpDigest(EVP_sha256(), data) }

    /// MD5 of the bytes (16 bytes). Used where a protocol demands it (Pusher `body_md5`).
    public static func md5(_ data: some Collection<UInt8>) -> [UInt8] { evpDigest(EVP_md5(), data) }

    /// HMAC-SHA256 of `data` under `key` (32 bytes).
    public static func hmacSHA256(key: some Collection<UInt8>, _ data: some Collection<UInt8>) -> [UInt8] {
        let key = Array(key), data = Array(data)
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        key.withUnsafeBufferPointer { k in
            data.withUnsafeBufferPointer { d in
                _ = HMAC(EVP_sha256(), k.baseAddress, Int32(k.count), d.baseAddress, d.count, &out, &length)
            }
        }
        return Array(out.prefix(Int(length)))
    }

    /// `count` cryptographically random bytes.
    public static func randomBytes(_ count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        let ok = out.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }
        precondition(ok == 1, "libcrypto RAND_bytes failed")
        return out
    }

    /// Constant-time comparison of two byte strings of equal length (signature checks).
    public static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBytes { x in b.withUnsafeBytes { y in CRYPTO_memcmp(x.baseAddress, y.baseAddress, a.count) == 0 } }
    }

    private static func evpDigest(_ md: OpaquePointer?, _ data: some Collection<UInt8>) -> [UInt8] {
        let data = Array(data)
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        data.withUnsafeBufferPointer { d in
            _ = EVP_Digest(d.baseAddress, d.count, &out, &length, md, nil)
        }
        return Array(out.prefix(Int(length)))
    }
}

extension Collection<UInt8> {
    /// Lowercase hexadecimal form of the bytes.
    public var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(count * 2)
        for b in self { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 0xF)]) }
        return String(decoding: out, as: UTF8.self)
    }
}
