#if canImport(Glibc)
import Glibc
#endif

/// Sends one webhook request and reports the HTTP status (nil on a network failure).
/// Called off the hub and the event loops; may block.
public protocol WebhookPoster: Sendable {
    /// POSTs the delivery; returns the response status, or nil if none was received.
    func post(_ delivery: WebhookDelivery) -> Int?
}

/// A minimal blocking HTTP/1.1 client for webhooks: one request per connection,
/// IPv4/IPv6 through getaddrinfo, send and receive timeouts.
public struct SocketWebhookPoster: WebhookPoster {
    /// Seconds to wait for connect, send and the status line.
    public var timeoutSeconds: Int

    /// Creates a poster.
    public init(timeoutSeconds: Int = 10) { self.timeoutSeconds = timeoutSeconds }

    public func post(_ delivery: WebhookDelivery) -> Int? {
        guard let fd = connect(host: delivery.url.host, port: delivery.url.port) else { return nil }
        defer { close(fd) }
        var request = Array("POST \(delivery.url.path) HTTP/1.1\r\nHost: \(delivery.url.host):\(delivery.url.port)\r\n".utf8)
        request += Array("Content-Type: application/json\r\nContent-Length: \(delivery.body.count)\r\n".utf8)
        request += Array("X-Pusher-Key: \(delivery.key)\r\nX-Pusher-Signature: \(delivery.signature)\r\nConnection: close\r\n\r\n".utf8)
        request += delivery.body
        guard writeAll(fd, request) else { return nil }
        return readStatus(fd)
    }

    private func connect(host: String, port: Int) -> Int32? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else { return nil }
        defer { freeaddrinfo(list) }
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor {
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            if fd >= 0 {
                var tv = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
                setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
                setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
                if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return fd }
                close(fd)
            }
            cursor = info.pointee.ai_next
        }
        return nil
    }

    private func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    /// Reads until the status line is complete and parses `HTTP/1.x NNN`.
    private func readStatus(_ fd: Int32) -> Int? {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1024)
        while buffer.count < 8192 {
            if let end = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<end], as: UTF8.self)
                let parts = line.split(separator: " ")
                guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else { return nil }
                return status
            }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return nil }
            buffer += chunk[0..<n]
        }
        return nil
    }
}
