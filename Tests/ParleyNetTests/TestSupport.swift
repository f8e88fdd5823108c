import Dispatch
import Glibc
import Synchronization

@testable import ParleyNet

/// Collects values from loop threads and lets a test block until enough have arrived.
/// The wait has a generous hang guard (a broken feature fails the test instead of hanging);
/// nothing asserts on elapsed time.
final class Collector<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    private let signal = DispatchSemaphore(value: 0)

    func append(_ value: Value) {
        values.withLock { $0.append(value) }
        signal.signal()
    }

    /// Waits until `count` values arrived (or the hang guard expires) and returns them.
    @discardableResult
    func wait(count: Int, guardSeconds: Double = 20) -> [Value] {
        let deadline = DispatchTime.now() + guardSeconds
        while values.withLock({ $0.count }) < count {
            if signal.wait(timeout: deadline) == .timedOut { break }
        }
        return snapshot
    }

    var snapshot: [Value] { values.withLock { $0 } }
}

/// A blocking client socket for poking servers with raw bytes.
/// Blocking socket used by one test thread at a time (a concurrent reader only reads).
final class RawClient: @unchecked Sendable {
    // @unchecked: the fd is immutable; concurrent send/recv on one socket is safe.
    let fd: Int32

    init(port: Int, host: String = "127.0.0.1") throws {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var timeout = timeval(tv_sec: 20, tv_usec: 0)  // hang guard only
        setsockopt(socketFD, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socketFD, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        inet_pton(AF_INET, host, &address.sin_addr)
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        // Closed here and thrown before `fd` is set: a fully initialised object that throws
        // from its init is deinitialised, and a second close would hit whatever descriptor
        // another test opened in the meantime under the same number (another server's socket).
        if rc != 0 {
            let failure = errno
            Glibc.close(socketFD)
            throw NetError.fromErrno(failure, "connect")
        }
        fd = socketFD
    }

    deinit { Glibc.close(fd) }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            offset += n
        }
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    /// Reads until `count` bytes arrived or the stream ends.
    func read(count: Int) -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while out.count < count {
            let n = Glibc.recv(fd, &buffer, min(buffer.count, count - out.count), 0)
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return out
    }

    /// Reads until the peer closes (or the hang guard expires).
    func readToEnd() -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = Glibc.recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return out
    }

    /// Reads until `marker` has been seen `times` times.
    func read(until marker: String, times: Int = 1) -> String {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while String(decoding: out, as: UTF8.self).components(separatedBy: marker).count - 1 < times {
            let n = Glibc.recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Sends FIN (what a well-behaved client does after reading the server's close).
    func finishSending() { shutdown(fd, Int32(SHUT_WR)) }

    /// Whether the peer has closed: a read returns 0 (or reset).
    func peerClosed() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = Glibc.recv(fd, &buffer, buffer.count, 0)
            if n == 0 { return true }
            if n < 0 { return errno == ECONNRESET }
        }
    }
}

extension String {
    func components(separatedBy separator: String) -> [Substring] {
        var parts: [Substring] = []
        var rest = self[...]
        while let range = rest.range(of: separator) {
            parts.append(rest[..<range.lowerBound])
            rest = rest[range.upperBound...]
        }
        parts.append(rest)
        return parts
    }

    func range(of needle: String) -> Range<String.Index>? { self[...].range(of: needle) }
}

extension Substring {
    func range(of needle: String) -> Range<String.Index>? {
        guard !needle.isEmpty else { return nil }
        var index = startIndex
        while index < endIndex {
            if self[index...].hasPrefix(needle) {
                return index..<(self.index(index, offsetBy: needle.count))
            }
            index = self.index(after: index)
        }
        return nil
    }
}

/// An echo handler for raw TCP tests.
final class EchoHandler: ConnectionHandler {
    let closed: Collector<String>?
    init(closed: Collector<String>? = nil) { self.closed = closed }

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        connection.write(bytes)
    }

    func connection(_ connection: Connection, didCloseWith error: NetError?) {
        closed?.append(error?.code.rawValue ?? "ok")
    }
}
