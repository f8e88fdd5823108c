import CLinux
import Glibc

/// An owned TCP socket to the server under test; closed when released.
final class BenchSocket {
    /// The descriptor (valid until `close()` or deinit).
    private(set) var descriptor: Int32

    /// Connects to `host:port` (blocking; loopback connects complete at once), with TCP_NODELAY.
    init(host: String, port: Int) throws(BenchError) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw BenchError("connect", "socket(): \(Self.errnoText())") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            Glibc.close(fd)
            throw BenchError("connect", "not an IPv4 address: \(host)")
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let text = Self.errnoText()
            Glibc.close(fd)
            throw BenchError("connect", "connect to \(host):\(port): \(text)")
        }
        _ = clinux_set_int_option(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
        descriptor = fd
    }

    deinit { close() }

    /// Closes the socket (idempotent).
    func close() {
        if descriptor >= 0 {
            Glibc.close(descriptor)
            descriptor = -1
        }
    }

    /// Switches the socket to non-blocking I/O (for the event loop).
    func makeNonBlocking() throws(BenchError) {
        guard clinux_set_nonblocking(descriptor) == 0 else { throw BenchError("socket", "O_NONBLOCK: \(Self.errnoText())") }
    }

    /// Writes as much of `bytes[offset...]` as the socket takes; returns the bytes written
    /// (0 when it would block). Throws when the connection is gone.
    func write(_ bytes: [UInt8], from offset: Int) throws(BenchError) -> Int {
        let written = bytes.withUnsafeBytes { raw in
            Glibc.send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
        }
        if written >= 0 { return written }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return 0 }
        throw BenchError("socket", "send: \(Self.errnoText())")
    }

    /// Writes all of `bytes`, blocking (setup and the sequential read probes).
    func writeAll(_ bytes: [UInt8]) throws(BenchError) {
        var offset = 0
        while offset < bytes.count {
            offset += try write(bytes, from: offset)
        }
    }

    /// Reads what is available into `scratch` and hands it to `scanner`; returns the byte count,
    /// 0 at end of stream, -1 when it would block.
    func read(into scratch: UnsafeMutableRawBufferPointer, feeding scanner: inout ResponseScanner) throws(BenchError) -> Int {
        let count = recv(descriptor, scratch.baseAddress, scratch.count, 0)
        if count > 0 {
            scanner.receive(UnsafeRawBufferPointer(rebasing: scratch[0..<count]))
            return count
        }
        if count == 0 { return 0 }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return -1 }
        throw BenchError("socket", "recv: \(Self.errnoText())")
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}
