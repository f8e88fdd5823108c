import ParleyPlatform

/// Reads whole files (for `/image`).
public enum FileBytes {
    /// Largest file read: bigger ones are refused before upload.
    public static let limit = 32 << 20

    /// The file's bytes, or nil when it cannot be read or is larger than ``limit``.
    @Sendable public static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n > 0 { bytes.append(contentsOf: chunk[0..<n]) }
            if bytes.count > limit { return nil }
            if n < chunk.count { break }
        }
        return ferror(file) == 0 ? bytes : nil
    }
}
