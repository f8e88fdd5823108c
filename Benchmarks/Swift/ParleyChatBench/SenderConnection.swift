/// One sender: its socket and its request, of which only the client-id counter changes.
///
/// The request is assembled once; each send writes the next counter value into its fixed-width
/// digit field, so client ids are unique and the Content-Length never changes.
final class SenderConnection {
    /// Position in the driver's connection array, and the epoll token.
    let index: Int
    /// The current socket (replaced if the server closes it).
    var socket: BenchSocket
    /// Response bytes not yet consumed.
    var scanner = ResponseScanner()
    /// Whether a request is written (or being written) and its response not yet read.
    var inFlight = false
    /// Bytes of the current request already written.
    var written = 0
    /// When the current request was due (open loop) or sent (closed loop), monotonic ns.
    var sentAt: UInt64 = 0
    /// Whether the latency of the current request is recorded.
    var recorded = false

    private(set) var request: [UInt8]
    private let counterOffset: Int
    private var counter = 0
    private static let counterDigits = 10

    init(index: Int, socket: BenchSocket, room: String, token: String, clientPrefix: String, text: String) {
        self.index = index
        self.socket = socket
        let placeholder = String(repeating: "0", count: Self.counterDigits)
        let bodyStart = #"{"client_id":""# + clientPrefix + "-"
        let body = bodyStart + placeholder + #"","parts":[{"type":"text","text":""# + text + #""}]}"#
        let head =
            "POST /v1/rooms/\(room)/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
        request = Array((head + body).utf8)
        counterOffset = head.utf8.count + bodyStart.utf8.count
    }

    /// Writes the next counter value into the request's client id.
    func advanceClientID() {
        counter += 1
        var value = counter
        var position = counterOffset + Self.counterDigits - 1
        while position >= counterOffset {
            request[position] = UInt8(ascii: "0") + UInt8(value % 10)
            value /= 10
            position -= 1
        }
    }
}
