import ParleyWire
import Synchronization

/// Answers one request, once, from any thread.
///
/// The answer hops to the connection's loop and is written in request order (pipelined
/// requests that finish early wait for those before them). A responder dropped without an
/// answer sends 500, so a forgotten path in a handler never hangs the client.
public final class HTTPResponder: Sendable {
    /// The loop of the connection this responder answers on.
    public let loop: EventLoop
    private let target: ResponseTarget
    private let answered = Atomic<Bool>(false)

    init(loop: EventLoop, target: ResponseTarget) {
        self.loop = loop
        self.target = target
    }

    deinit {
        guard !answered.load(ordering: .acquiring) else { return }
        let target = self.target
        let response = HTTPResponse.error(
            HTTPStatus(500), code: "handler_dropped_request",
            message: "the handler finished without answering")
        hop(loop) { target.complete(response) }
    }

    /// Sends a complete response. Any thread; only the first answer counts.
    public func respond(_ response: HTTPResponse) {
        guard claim() else { return }
        let target = self.target
        hop(loop) { target.complete(response) }
    }

    /// Sends a complete response built from parts. Any thread.
    public func respond(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        respond(HTTPResponse(status: status, headers: headers, body: body))
    }

    /// Starts a chunked response; write the body through the returned stream. Any thread.
    /// (An HTTP/1.0 client gets the body buffered and sent with Content-Length at `finish`.)
    public func stream(_ head: HTTPResponseHead) -> HTTPResponseStream {
        let stream = HTTPResponseStream(loop: loop, target: target)
        guard claim() else { return stream }
        let target = self.target
        hop(loop) { target.startStream(head) }
        return stream
    }

    private func claim() -> Bool {
        !answered.exchange(true, ordering: .acquiringAndReleasing)
    }
}

/// The body of a streamed (chunked) response. Any thread; calls keep their order.
public final class HTTPResponseStream: Sendable {
    private let loop: EventLoop
    private let target: ResponseTarget
    private let finished = Atomic<Bool>(false)

    init(loop: EventLoop, target: ResponseTarget) {
        self.loop = loop
        self.target = target
    }

    deinit {
        guard !finished.load(ordering: .acquiring) else { return }
        let target = self.target
        hop(loop) { target.finishStream(trailers: HTTPHeaders()) }
    }

    /// Sends one chunk (empty input sends nothing).
    public func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty, !finished.load(ordering: .acquiring) else { return }
        let target = self.target
        hop(loop) { target.streamChunk(bytes) }
    }

    /// Ends the body, with optional trailer fields.
    public func finish(trailers: HTTPHeaders = HTTPHeaders()) {
        guard !finished.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let target = self.target
        hop(loop) { target.finishStream(trailers: trailers) }
    }
}

/// Where a responder's answer goes: one response slot of one HTTP connection.
struct ResponseTarget: @unchecked Sendable {
    // @unchecked: the connection is only touched inside closures run on its own loop.
    let connection: HTTPServerConnection
    let slot: Int

    func complete(_ response: HTTPResponse) { connection.complete(slot: slot, with: response) }
    func startStream(_ head: HTTPResponseHead) { connection.startStream(slot: slot, head: head) }
    func streamChunk(_ bytes: [UInt8]) { connection.streamChunk(slot: slot, bytes) }
    func finishStream(trailers: HTTPHeaders) { connection.finishStream(slot: slot, trailers: trailers) }
}

/// Runs `work` on `loop`: inline when already there, else through its task queue.
@inline(__always)
func hop(_ loop: EventLoop, _ work: @escaping @Sendable () -> Void) {
    if loop.inEventLoop { work() } else { loop.execute(work) }
}
