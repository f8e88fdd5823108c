import ParleyWire

/// One request/response on a connection; loop-confined. When the response leaves the
/// connection clean (fully framed, no `Connection: close`, nothing extra), `release` gets it
/// back for reuse; otherwise it is closed. Runs over a ``Connection``, or an
/// ``EmbeddedChannel`` in tests.
final class HTTPClientExchange: ConnectionHandler, ChannelDriver {
    /// How an exchange ended: the result, and whether any response byte had arrived (a
    /// reused connection that failed before that was most likely closed by the server while idle).
    struct Outcome: Sendable {
        var result: Result<HTTPClientResponse, HTTPClientError>
        var sawResponseBytes: Bool
    }

    private var parser: HTTPResponseParser
    private let bodyCount: Int
    private let progress: (@Sendable (Int, Int) -> Void)?
    private let release: (() -> Void)?
    private var sawResponseBytes = false
    private var channel: (any DriverChannel)?
    private var finish: ((Outcome) -> Void)?

    init(
        parser: HTTPResponseParser, bodyCount: Int, progress: (@Sendable (Int, Int) -> Void)?,
        release: (() -> Void)?, finish: @escaping (Outcome) -> Void
    ) {
        self.parser = parser
        self.bodyCount = bodyCount
        self.progress = progress
        self.release = release
        self.finish = finish
    }

    /// Sends the request on `channel`, which delivers this exchange its events from now on.
    func start(_ channel: any DriverChannel, _ bytes: [UInt8]) {
        self.channel = channel
        progress?(0, bodyCount)
        guard channel.write(bytes) else {
            complete(.failure(HTTPClientError(.network, "could not write the request")))
            return
        }
        if !channel.isWriteBlocked { progress?(bodyCount, bodyCount) }
    }

    /// Ends the exchange as cancelled and aborts the connection (never parked: the answer
    /// may still be on its way).
    func cancel() { complete(.failure(.cancelled)) }

    // MARK: ChannelDriver

    func channelDidDrain() { progress?(bodyCount, bodyCount) }

    func channelDidRead(_ bytes: UnsafeRawBufferPointer) {
        sawResponseBytes = true
        do throws(HTTPResponseParseError) {
            if let response = try parser.receive(bytes) {
                complete(.success(response), reusable: parser.leavesConnectionReusable)
            }
        } catch {
            complete(.failure(HTTPClientError(.malformedResponse, error.description)))
        }
    }

    func channelDidReachEOF() {
        do throws(HTTPResponseParseError) {
            complete(.success(try parser.finish()))
        } catch {
            complete(.failure(HTTPClientError(error.code == .truncated ? .network : .malformedResponse, error.description)))
        }
    }

    func channelDidExceedOutboundLimit() {
        complete(.failure(HTTPClientError(.network, "request over the outbound bound")))
    }

    func channelDidTimeOut() {
        complete(.failure(HTTPClientError(.timedOut, "no answer from the server")))
    }

    func channelDidClose(_ error: NetError?) {
        let reason = error.map { "\($0)" } ?? "closed"
        complete(.failure(HTTPClientError(.network, "connection closed before the response: \(reason)")))
    }

    // MARK: ConnectionHandler

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) { channelDidRead(bytes) }

    func connectionDidReachEOF(_ connection: Connection) { channelDidReachEOF() }

    func connectionDidDrain(_ connection: Connection) { channelDidDrain() }

    func connectionDidExceedOutboundLimit(_ connection: Connection) { channelDidExceedOutboundLimit() }

    func connectionDidTimeOut(_ connection: Connection) { channelDidTimeOut() }

    func connection(_ connection: Connection, didCloseWith error: NetError?) { channelDidClose(error) }

    private func complete(_ result: Result<HTTPClientResponse, HTTPClientError>, reusable: Bool = false) {
        guard let finish, let channel else { return }
        self.finish = nil
        self.channel = nil
        // Parked before the caller resumes, so its next request can already reuse it. Not when
        // the server answered before taking the whole request: the rest would precede the next one.
        if reusable, let release, channel.isOpen, channel.outboundBytes == 0 {
            release()
        } else if !channel.isClosed {
            channel.abort(nil)
        }
        finish(Outcome(result: result, sawResponseBytes: sawResponseBytes))
    }
}
