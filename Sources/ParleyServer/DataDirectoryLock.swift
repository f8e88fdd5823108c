import ParleyPlatform
import ParleySystem
import Synchronization

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

    /// The open lock file; nil once released.
    private let file: Mutex<FileDescriptor?>

    private init(file: consuming FileDescriptor) { self.file = Mutex(consume file) }

    /// Takes the lock or fails at once with ``ServerStartError`` code `data_dir_locked`.
    static func acquire(directory: String) throws(ServerStartError) -> DataDirectoryLock {
        let path = directory.hasSuffix("/") ? directory + fileName : "\(directory)/\(fileName)"
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, O_RDWR | O_CREAT | O_CLOEXEC, permissions: 0o640)
        } catch {
            throw ServerStartError(code: "data_dir", message: "cannot open \(path): \(error.reason)")
        }
        let locked = file.withRawValue { fd in
            Result { () throws(SystemCallError) in try SystemCall.retrying("flock") { flock(fd, LOCK_EX | LOCK_NB) } }
        }
        if case .failure(let error) = locked {
            let holder = file.withRawValue(readPID)
            try? file.close()
            guard error.errno == EWOULDBLOCK else {
                throw ServerStartError(code: "data_dir", message: "cannot lock \(path): \(error.reason)")
            }
            let who = holder.map { "another parley server (pid \($0))" } ?? "another parley server"
            throw ServerStartError(
                code: "data_dir_locked",
                message: """
                    the data directory \(directory) is in use by \(who); two servers must not share one \
                    embedded database. Stop that server or give this one another --data-dir
                    """)
        }
        file.withRawValue(writePID)
        return DataDirectoryLock(file: file)
    }

    /// Releases the lock (also released when the process exits).
    func release() {
        guard let file = file.withLock({ $0.take() }) else { return }
        _ = file.withRawValue { flock($0, LOCK_UN) }
        try? file.close()
    }

    /// A lock never released is dropped with the process; the descriptor is closed here.
    deinit { try? file.withLock { $0.take() }?.close() }

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
