@testable import ParleyStore

#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory under /tmp for one test's SQLite database (`test.sqlite`); `remove()`
/// deletes the database, its log and its index, then the directory.
struct ScratchDatabase {
    let directory: String
    var path: String { directory + "/test.sqlite" }

    init(_ label: String) throws {
        var template = Array("/tmp/parley-\(label)-test-XXXXXX".utf8CString)
        guard let directory = mkdtemp(&template) else { throw StoreError(.io, "mkdtemp failed") }
        self.directory = String(cString: directory)
    }

    func remove() {
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        rmdir(directory)
    }
}
