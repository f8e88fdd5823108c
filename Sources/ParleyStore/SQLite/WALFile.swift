import ParleyPlatform
import ParleySystem

/// An open descriptor of an SQLite database's write-ahead log, kept for `fdatasync`.
///
/// The descriptor is checked against the path before each sync: should the log ever be
/// replaced by a new file (SQLite deletes it when the last connection closes), the new one is
/// opened, and its directory synced once so the file itself survives a power loss.
final class WALFile {
    let path: String
    private var descriptor: FileDescriptor?
    private var identity: (device: UInt64, inode: UInt64)?
    /// How many times the log was (re)opened.
    private(set) var opens = 0

    init(databasePath: String) {
        self.path = databasePath + "-wal"
    }

    deinit {
        try? descriptor.take()?.close()
    }

    /// Flushes everything written to the log so far to stable storage.
    func sync() throws(StoreError) {
        try openIfReplaced()
        do {
            try descriptor?.syncData()
        } catch {
            throw Self.ioError("fdatasync of \(path)", error)
        }
    }

    private func openIfReplaced() throws(StoreError) {
        var current = stat()
        do {
            _ = try SystemCall.retrying("stat") { stat(path, &current) }
        } catch {
            throw Self.ioError("stat of \(path)", error)
        }
        let currentIdentity = (UInt64(current.st_dev), UInt64(current.st_ino))
        if descriptor != nil, let identity, identity == currentIdentity { return }
        try? descriptor.take()?.close()
        do {
            descriptor = try FileDescriptor.open(path, O_RDWR | O_CLOEXEC)
        } catch {
            throw Self.ioError("open of \(path)", error)
        }
        identity = currentIdentity
        opens += 1
        try syncDirectory()
    }

    private func syncDirectory() throws(StoreError) {
        let directory = path.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(path[..<$0]) } ?? "."
        do {
            try FileDescriptor.open(directory.isEmpty ? "/" : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                .closeAfter { handle throws(SystemCallError) in try handle.sync() }
        } catch {
            throw Self.ioError("\(error.call == "open" ? "open" : "fsync") of directory \(directory)", error)
        }
    }

    private static func ioError(_ what: String, _ error: SystemCallError) -> StoreError {
        StoreError(.io, "\(what) failed: \(error.reason)")
    }
}
