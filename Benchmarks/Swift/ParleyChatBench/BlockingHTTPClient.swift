import Glibc

/// A keep-alive HTTP/1.1 client on one blocking socket: one request, then its whole response.
/// Used for the untimed setup and for the sequential latency probes (history, room list).
final class BlockingHTTPClient {
    private let host: String
    private let port: Int
    private var socket: BenchSocket
    private var scanner = ResponseScanner()
    private let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 8)

    init(host: String, port: Int) throws(BenchError) {
        self.host = host
        self.port = port
        socket = try BenchSocket(host: host, port: port)
    }

    deinit { scratch.deallocate() }

    /// Builds the bytes of a request with a JSON (or empty) body.
    static func request(_ method: String, _ path: String, authorization: String?, body: [UInt8]? = nil) -> [UInt8] {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        if let authorization { head += "Authorization: \(authorization)\r\n" }
        if let body { head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + (body ?? [])
    }

    /// Sends `request` and waits for its response (reconnecting once if the server had closed
    /// an idle connection before the request was written).
    func perform(_ request: [UInt8], keepBody: Bool = true) throws(BenchError) -> ResponseScanner.Response {
        do {
            return try exchange(request, keepBody: keepBody)
        } catch  where error.code == "closed" {
            socket = try BenchSocket(host: host, port: port)
            scanner = ResponseScanner()
            return try exchange(request, keepBody: keepBody)
        }
    }

    private func exchange(_ request: [UInt8], keepBody: Bool) throws(BenchError) -> ResponseScanner.Response {
        do {
            try socket.writeAll(request)
        } catch {
            throw BenchError("closed", error.message)
        }
        while true {
            if let response = try scanner.next(keepBody: keepBody) {
                if response.closes {
                    socket = try BenchSocket(host: host, port: port)
                    scanner = ResponseScanner()
                }
                return response
            }
            let count = try socket.read(into: scratch, feeding: &scanner)
            if count == 0 {
                throw BenchError(scanner.hasPartialResponse ? "protocol" : "closed", "the server closed the connection mid-request")
            }
        }
    }
}
