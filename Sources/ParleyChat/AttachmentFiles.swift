import ParleyPlatform
import ParleySystem

/// The attachment files under the data directory: `attachments/{app}/{id}`.
///
/// Writes go to a temporary name, are fsync'd, then renamed, so a file at its final name is
/// always complete. Paths are built only from app ids and generated attachment ids, both
/// reduced to safe characters, so nothing a client sends can escape the directory.
struct AttachmentFiles: Sendable {
    /// The data directory.
    let root: String

    /// The storage path relative to the data directory.
    static func relativePath(app: String, id: String) -> String {
        "attachments/\(safeComponent(app))/\(safeComponent(id))"
    }

    /// Where an attachment's thumbnail is kept: beside it, under a name no attachment id can
    /// have (`safeComponent` turns every `.` of an id into `.2e`).
    static func thumbnailPath(of relativePath: String) -> String {
        relativePath + ".thumb.jpg"
    }

    /// Whether a file exists.
    func exists(_ relativePath: String) -> Bool {
        access(absolute(relativePath), F_OK) == 0
    }

    /// Writes the bytes durably at `relativePath`.
    func write(_ bytes: [UInt8], to relativePath: String) throws(ChatError) {
        let path = absolute(relativePath)
        try makeParentDirectories(of: path)
        let temporary = path + ".partial"
        let stored = Result { () throws(SystemCallError) in
            try FileDescriptor.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, permissions: 0o640)
                .closeAfter { file throws(SystemCallError) in
                    try file.writeAll(bytes)
                    try file.sync()
                }
        }
        if case .failure(let error) = stored {
            if error.call != "open" { unlink(temporary) }
            throw ioError(error.call == "open" ? "open" : "write", error)
        }
        guard rename(temporary, path) == 0 else {
            let error = errno
            unlink(temporary)
            throw ioError("write", error)
        }
        syncDirectory(of: path)
    }

    /// Reads a whole file; nil when it does not exist.
    func read(_ relativePath: String) throws(ChatError) -> [UInt8]? {
        let path = absolute(relativePath)
        do {
            return try FileDescriptor.open(path, O_RDONLY | O_CLOEXEC).closeAfter { file throws(SystemCallError) in
                try file.read(upTo: Int(try file.status().st_size))
            }
        } catch  where error.call == "open" && error.code == .notFound {
            return nil
        } catch {
            throw ioError(error.call == "fstat" ? "stat" : error.call, error)
        }
    }

    /// Removes an attachment's file and its thumbnail, where they exist.
    func remove(_ relativePath: String) {
        unlink(absolute(relativePath))
        unlink(absolute(Self.thumbnailPath(of: relativePath)))
    }

    private func absolute(_ relativePath: String) -> String {
        root.hasSuffix("/") ? root + relativePath : root + "/" + relativePath
    }

    private func makeParentDirectories(of path: String) throws(ChatError) {
        var prefix = ""
        let components = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        for (index, component) in components.enumerated() {
            prefix += (index == 0 ? "" : "/") + component
            guard !prefix.isEmpty else { continue }
            if mkdir(prefix, 0o750) != 0, errno != EEXIST { throw ioError("mkdir", errno) }
        }
    }

    /// Makes the rename itself durable.
    private func syncDirectory(of path: String) {
        guard let slash = path.lastIndex(of: "/") else { return }
        guard let directory = try? FileDescriptor.open(String(path[..<slash]), O_RDONLY | O_DIRECTORY | O_CLOEXEC) else { return }
        try? directory.sync()
        try? directory.close()
    }

    private func ioError(_ operation: String, _ error: SystemCallError) -> ChatError {
        ioError(operation, error.errno)
    }

    private func ioError(_ operation: String, _ errno: Int32) -> ChatError {
        ChatError(.unavailable, "attachment storage failed (\(operation), errno \(errno))")
    }

    /// Keeps `[A-Za-z0-9_-]`; any other byte becomes `.xx` hex, so distinct ids stay distinct.
    static func safeComponent(_ text: String) -> String {
        let hex = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"):
                out.append(byte)
            default:
                out.append(UInt8(ascii: "."))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            }
        }
        return out.isEmpty ? ".empty" : String(decoding: out, as: UTF8.self)
    }
}
