import ParleyWire

/// Base64url without padding (RFC 4648 section 5), as JWTs and signed URLs use it, over `Base64`.
enum Base64URL {
    /// Encodes bytes as unpadded base64url.
    static func encode(_ bytes: some Collection<UInt8>) -> String {
        var out: [UInt8] = []
        let standard = Base64.encode(bytes).utf8
        out.reserveCapacity(standard.count)
        for byte in standard {
            switch byte {
            case UInt8(ascii: "+"): out.append(UInt8(ascii: "-"))
            case UInt8(ascii: "/"): out.append(UInt8(ascii: "_"))
            case UInt8(ascii: "="): continue
            default: out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes unpadded base64url; nil for padding, standard-alphabet characters or bad length.
    static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        var standard: [UInt8] = []
        standard.reserveCapacity(text.count + 3)
        for byte in text {
            switch byte {
            case UInt8(ascii: "-"): standard.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): standard.append(UInt8(ascii: "/"))
            case UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="): return nil
            default: standard.append(byte)
            }
        }
        switch standard.count % 4 {
        case 0: break
        case 2: standard.append(contentsOf: [UInt8(ascii: "="), UInt8(ascii: "=")])
        case 3: standard.append(UInt8(ascii: "="))
        default: return nil
        }
        return Base64.decode(String(decoding: standard, as: UTF8.self))
    }
}
