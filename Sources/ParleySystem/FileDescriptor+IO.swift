import ParleyPlatform

extension FileDescriptor {
    /// Reads up to `buffer.count` bytes into `buffer`; 0 at end of file.
    @inlinable
    public borrowing func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int {
        try SystemCall.retrying("read") { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Reads without blocking: the bytes read (0 at end of file), or ``IOResult/wouldBlock``.
    @inlinable
    public borrowing func readNonBlocking(into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> IOResult<Int> {
        try SystemCall.nonBlocking("read") { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Writes all of `bytes`, continuing after short writes.
    public borrowing func writeAll(_ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
        var written = 0
        while written < bytes.count {
            written += try SystemCall.retrying("write") {
                Glibc.write(rawValue, bytes.baseAddress! + written, bytes.count - written)
            }
        }
    }

    /// Writes all of `bytes`, continuing after short writes.
    public borrowing func writeAll(_ bytes: [UInt8]) throws(SystemCallError) {
        // withUnsafeBytes rethrows untyped errors, so the outcome comes out as a value.
        try bytes.withUnsafeBytes { buffer in Result { () throws(SystemCallError) in try writeAll(buffer) } }.get()
    }

    /// Reads until end of file or `count` bytes; returns what was read.
    public borrowing func read(upTo count: Int) throws(SystemCallError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            // withUnsafeMutableBytes rethrows untyped errors, so the outcome comes out as a value.
            let n = try bytes.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemCallError) in try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])) }
            }.get()
            if n == 0 { break }
            filled += n
        }
        bytes.removeLast(count - filled)
        return bytes
    }

    /// Flushes the file's data and metadata to stable storage (`fsync`).
    public borrowing func sync() throws(SystemCallError) {
        _ = try SystemCall.retrying("fsync") { fsync(rawValue) }
    }

    /// Flushes the file's data, and metadata only as far as needed to read it back (`fdatasync`).
    public borrowing func syncData() throws(SystemCallError) {
        _ = try SystemCall.retrying("fdatasync") { fdatasync(rawValue) }
    }

    /// The file's status (`fstat`).
    public borrowing func status() throws(SystemCallError) -> stat {
        var info = stat()
        _ = try SystemCall.retrying("fstat") { fstat(rawValue, &info) }
        return info
    }
}
