#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open descriptor of an SQLite database's write-ahead log, kept for `fdatasync`.
///
/// The descriptor is checked against the path before each sync: should the log ever be
/// replaced by a new file (SQLite deletes it when the last connection closes), the new one is
/// opened, and its directory synced once so the file itself survives a power loss.
final class WALFile {
    let path: String
    private var descriptor: Int32 = -1
    private var identity: (device: UInt64, inode: UInt64)?
    /// How many times the log was (re)opened.
    private(set) var opens = 0

    init(databasePath: String) {
        self.path = databasePath + "-wal"
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Flushes everything written to the log so far to stable storage.
    func sync() throws(StoreError) {
        try openIfReplaced()
        while fdatasync(descriptor) != 0 {
            guard errno == EINTR else { throw Self.ioError("fdatasync of \(path)") }
        }
    }

    private func openIfReplaced() throws(StoreError) {
        var current = stat()
        guard stat(path, &current) == 0 else { throw Self.ioError("stat of \(path)") }
        let currentIdentity = (UInt64(current.st_dev), UInt64(current.st_ino))
        if descriptor >= 0, let identity, identity == currentIdentity { return }
        if descriptor >= 0 { close(descriptor) }
        descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.ioError("open of \(path)") }
        identity = currentIdentity
        opens += 1
        try syncDirectory()
    }

    private func syncDirectory() throws(StoreError) {
        let directory = path.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(path[..<$0]) } ?? "."
        let handle = open(directory.isEmpty ? "/" : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard handle >= 0 else { throw Self.ioError("open of directory \(directory)") }
        defer { close(handle) }
        guard fsync(handle) == 0 else { throw Self.ioError("fsync of directory \(directory)") }
    }

    private static func ioError(_ what: String) -> StoreError {
        StoreError(.io, "\(what) failed: \(String(cString: strerror(errno)))")
    }
}
