import ParleyPlatform

/// An exclusive `flock` on `parley.lock` in the data directory, held for the life of the
/// server, so two servers never run on one embedded database.
///
/// SQLite would let a second process open the same file, but each server assumes it is the
/// database's only writer (one group-commit writer, caches of what it wrote). The lock file
/// holds the owner's pid so the refusal can name it. The kernel drops the lock when the
/// process dies, however it dies, so a stale file never blocks a restart.
final class DataDirectoryLock: Sendable {
    /// The lock file's name inside the data directory.
    static let fileName = "parley.lock"

    private let fd: Int32

    private init(fd: Int32) { self.fd = fd }

    /// Takes the lock or fails at once with ``ServerStartError`` code `data_dir_locked`.
    static func acquire(directory: String) throws(ServerStartError) -> DataDirectoryLock {
        let path = directory.hasSuffix("/") ? directory + fileName : "\(directory)/\(fileName)"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o640)
        guard fd >= 0 else {
            throw ServerStartError(code: "data_dir", message: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno
            let holder = readPID(fd)
            _ = close(fd)
            guard reason == EWOULDBLOCK else {
                throw ServerStartError(code: "data_dir", message: "cannot lock \(path): \(String(cString: strerror(reason)))")
            }
            let who = holder.map { "another parley server (pid \($0))" } ?? "another parley server"
            throw ServerStartError(code: "data_dir_locked", message: """
                the data directory \(directory) is in use by \(who); two servers must not share one \
                embedded database. Stop that server or give this one another --data-dir
                """)
        }
        writePID(fd)
        return DataDirectoryLock(fd: fd)
    }

    /// Releases the lock (also released when the process exits).
    func release() {
        _ = flock(fd, LOCK_UN)
        _ = close(fd)
    }

    private static func readPID(_ fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let n = pread(fd, &buffer, buffer.count, 0)
        guard n > 0 else { return nil }
        let text = String(decoding: buffer.prefix(n), as: UTF8.self)
        return Int32(text.split(separator: "\n").first.map(String.init) ?? "")
    }

    private static func writePID(_ fd: Int32) {
        var bytes = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = bytes.withUnsafeMutableBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }
}
