import ParleyPlatform
import ParleySystem
import Synchronization

/// Tells a service manager how the server is doing, by the `sd_notify` protocol without
/// libsystemd: one datagram of `NAME=value` lines per change to the AF_UNIX socket that
/// `NOTIFY_SOCKET` names (a path, or `@name` in the abstract namespace). systemd units with
/// `Type=notify` count the service as started at `READY=1`, i.e. once the port answers.
///
/// Owns its unbound datagram socket; closed when the notifier goes. Sends are one `sendto`
/// each, so any thread may call them.
final class ServiceNotifier: Sendable {
    /// The datagram socket; taken only by `deinit`.
    private let socket: Mutex<FileDescriptor?>
    /// The socket address bytes (a `sockaddr_un` of `addressLength` bytes).
    private let address: [UInt8]
    /// The `NOTIFY_SOCKET` value, for log lines.
    let socketName: String
    private let logger = Logger(label: "notify")

    /// The notifier `NOTIFY_SOCKET` asks for; nil when it is unset or empty (not run by a
    /// service manager). Throws when it names something this cannot send to.
    static func fromEnvironment(
        _ value: String? = getenv("NOTIFY_SOCKET").map { String(cString: $0) }
    )
        throws(ServerStartError) -> ServiceNotifier?
    {
        guard let value, !value.isEmpty else { return nil }
        guard value.hasPrefix("/") || value.hasPrefix("@") else {
            throw ServerStartError(
                code: "notify_socket", message: "NOTIFY_SOCKET=\(value): only a path or an @abstract socket is supported")
        }
        var path = Array(value.utf8)
        if path[0] == UInt8(ascii: "@") { path[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)
        guard path.count < capacity else {
            throw ServerStartError(code: "notify_socket", message: "NOTIFY_SOCKET=\(value): longer than \(capacity - 1) bytes")
        }
        do {
            let socket = try FileDescriptor.opening("socket") {
                Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            }
            return ServiceNotifier(socket: socket, path: path, socketName: value)
        } catch {
            throw ServerStartError(code: "notify_socket", message: "NOTIFY_SOCKET: socket: \(error.reason)")
        }
    }

    private init(socket: consuming FileDescriptor, path: [UInt8], socketName: String) {
        self.socket = Mutex(consume socket)
        self.socketName = socketName
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)!
        var storage = [UInt8](repeating: 0, count: pathOffset + path.count + (path[0] == 0 ? 0 : 1))
        withUnsafeBytes(of: sa_family_t(AF_UNIX)) { family in
            for (i, byte) in family.enumerated() { storage[MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_family)! + i] = byte }
        }
        storage.replaceSubrange(pathOffset..<(pathOffset + path.count), with: path)
        address = storage
    }

    deinit { try? socket.withLock { $0.take() }?.close() }

    /// The service is up and answering; `status` is the line `systemctl status` shows.
    @discardableResult
    func ready(status: String) -> Bool {
        send(["READY=1", "STATUS=\(status)", "MAINPID=\(getpid())"])
    }

    /// A reload (SIGHUP) begins; ``ready(status:)`` says when it is done.
    @discardableResult
    func reloading() -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let microseconds = Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
        return send(["RELOADING=1", "STATUS=Reloading the apps and the TLS certificate", "MONOTONIC_USEC=\(microseconds)"])
    }

    /// The server has begun to drain and will exit.
    @discardableResult
    func stopping(status: String) -> Bool {
        send(["STOPPING=1", "STATUS=\(status)"])
    }

    /// Sends one datagram of `lines`; false (and a warning line) when the manager could not be told.
    @discardableResult
    func send(_ lines: [String]) -> Bool {
        let message = Array((lines.joined(separator: "\n") + "\n").utf8)
        let sent = address.withUnsafeBytes { addressBytes in
            message.withUnsafeBytes { bytes in
                socket.withLock { socket in
                    socket?.withRawValue { fd in
                        try? SystemCall.retrying("sendto") {
                            sendto(
                                fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL),
                                addressBytes.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(addressBytes.count))
                        }
                    } ?? -1
                }
            }
        }
        guard sent == message.count else {
            logger.warning(
                "service manager not told",
                [
                    ("socket", socketName), ("message", lines[0]),
                    ("error", String(cString: strerror(errno)))
                ])
            return false
        }
        return true
    }
}
