/// The EXIF orientation tag (0x0112) of a JPEG: how the stored pixels must be turned to stand
/// the way the camera was held. 1 (as stored) when the file has none or it does not parse.
enum ExifOrientation {
    /// The tag's value 1…8 from the first APP1 `Exif` segment's first IFD.
    static func read(_ bytes: [UInt8]) -> Int {
        guard let tiff = exifPayload(bytes) else { return 1 }
        return orientation(inTIFF: tiff) ?? 1
    }

    /// The TIFF structure inside the APP1 segment, found by walking the segments before the scan.
    private static func exifPayload(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            if marker == 0xDA || marker == 0xD9 { return nil }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.count else { return nil }
            let body = bytes[(offset + 4)..<(offset + 2 + length)]
            if marker == 0xE1, body.starts(with: Array("Exif".utf8) + [0, 0]) { return body.dropFirst(6) }
            offset += 2 + length
        }
        return nil
    }

    private static func orientation(inTIFF tiff: ArraySlice<UInt8>) -> Int? {
        let data = Array(tiff)
        guard data.count >= 8 else { return nil }
        let little: Bool
        switch (data[0], data[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= data.count else { return nil }
            return little ? Int(data[at]) | Int(data[at + 1]) << 8 : Int(data[at]) << 8 | Int(data[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let first = u16(at), let second = u16(at + 2) else { return nil }
            return little ? first | second << 16 : first << 16 | second
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for entry in 0..<count {
            let at = ifd + 2 + entry * 12
            guard let tag = u16(at) else { return nil }
            // A SHORT whose value sits in the first two bytes of the value field.
            if tag == 0x0112, u16(at + 2) == 3, let value = u16(at + 8), (1...8).contains(value) { return value }
        }
        return nil
    }
}
