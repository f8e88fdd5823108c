import Glibc
import ParleyWire
import Synchronization

/// Writes the peer's reports to stdout as JSON lines, each line whole and at once, so the
/// driving test sees it as soon as it happens.
enum PeerOutput {
    private static let lock = Mutex(0)

    /// Writes one report.
    static func emit(_ object: JSONObject) {
        var line = JSONWriter.serialize(.object(object))
        line.append(10)
        lock.withLock { _ in write(line, to: 1) }
    }

    /// Writes to stderr and exits with status 2 (bad arguments).
    static func fail(_ message: String) -> Never {
        write(Array("ParleyKitPeer: \(message)\n".utf8), to: 2)
        exit(2)
    }

    private static func write(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}
