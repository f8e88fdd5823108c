import CGIF

/// The bytes giflib reads through its input callback, and how far it has read.
struct GIFInput {
    let base: UnsafePointer<UInt8>
    let count: Int
    var offset = 0

    /// Copies up to `length` further bytes to `buffer`; how many it copied (0 at the end).
    mutating func read(into buffer: UnsafeMutablePointer<UInt8>, length: Int) -> Int {
        let copied = max(0, min(length, count - offset))
        buffer.update(from: base + offset, count: copied)
        offset += copied
        return copied
    }

    /// giflib's `InputFunc`: reads from the ``GIFInput`` the file's `UserData` points at.
    static let callback: InputFunc = { file, buffer, length in
        guard let file, let buffer, length > 0, let input = file.pointee.UserData?.assumingMemoryBound(to: GIFInput.self) else {
            return 0
        }
        return Int32(input.pointee.read(into: buffer, length: Int(length)))
    }
}
