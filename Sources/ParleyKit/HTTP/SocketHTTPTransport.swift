import ParleyNet
import ParleyWire

/// An HTTP/1.1 client over plain TCP (`http://` only): one connection per request.
public struct SocketHTTPTransport: HTTPTransport {
    /// Give up when no byte moves for this long.
    public var timeout: Duration
    /// Largest response body accepted.
    public var maxResponseBytes: Int

    /// Creates a transport.
    public init(timeout: Duration = .seconds(30), maxResponseBytes: Int = 64 << 20) {
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
    }

    public func send(_ request: HTTPRequestMessage, progress: (@Sendable (Int, Int) -> Void)?) async throws(ParleyError) -> HTTPResponseMessage {
        guard let url = HTTPRequestEncoder.parse(request.url) else {
            throw ParleyError(.invalidArgument, "not an http:// URL: \(request.url)")
        }
        let loop = try NetRuntime.loop()
        let address = try await NetRuntime.address(host: url.host, port: url.port)
        let bytes = HTTPRequestEncoder.encode(request, url: url)
        let parser = HTTPResponseParser(bodyLimit: maxResponseBytes, isHeadRequest: request.method == "HEAD")
        let timeout = self.timeout
        let bodyCount = request.body.count
        let result: Result<HTTPResponseMessage, ParleyError> = await withCheckedContinuation { continuation in
            loop.execute {
                Connection.connect(to: address, on: loop, timeout: timeout) { connected in
                    switch connected {
                    case .failure(let error):
                        continuation.resume(returning: .failure(ParleyError(.network, "connecting to \(address): \(error)")))
                    case .success(let connection):
                        let exchange = HTTPClientExchange(parser: parser, bodyCount: bodyCount, progress: progress) {
                            continuation.resume(returning: $0)
                        }
                        connection.handler = exchange
                        connection.idleTimeout = timeout
                        connection.maxOutboundBytes = max(connection.maxOutboundBytes, bytes.count + 1024)
                        exchange.start(connection, bytes)
                    }
                }
            }
        }
        return try result.get()
    }
}

/// One request/response on a connection; loop-confined.
final class HTTPClientExchange: ConnectionHandler {
    private var parser: HTTPResponseParser
    private let bodyCount: Int
    private let progress: (@Sendable (Int, Int) -> Void)?
    private var finish: ((Result<HTTPResponseMessage, ParleyError>) -> Void)?

    init(parser: HTTPResponseParser, bodyCount: Int, progress: (@Sendable (Int, Int) -> Void)?,
         finish: @escaping (Result<HTTPResponseMessage, ParleyError>) -> Void) {
        self.parser = parser
        self.bodyCount = bodyCount
        self.progress = progress
        self.finish = finish
    }

    func start(_ connection: Connection, _ bytes: [UInt8]) {
        progress?(0, bodyCount)
        guard connection.write(bytes) else {
            complete(connection, .failure(ParleyError(.network, "could not write the request")))
            return
        }
        if !connection.isWriteBlocked { progress?(bodyCount, bodyCount) }
    }

    func connectionDidDrain(_ connection: Connection) { progress?(bodyCount, bodyCount) }

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        do throws(ParleyError) {
            if let response = try parser.receive(bytes) { complete(connection, .success(response)) }
        } catch {
            complete(connection, .failure(error))
        }
    }

    func connectionDidReachEOF(_ connection: Connection) {
        do throws(ParleyError) {
            complete(connection, .success(try parser.finish()))
        } catch {
            complete(connection, .failure(error))
        }
    }

    func connectionDidTimeOut(_ connection: Connection) {
        complete(connection, .failure(ParleyError(.timedOut, "no answer from the server")))
    }

    func connection(_ connection: Connection, didCloseWith error: NetError?) {
        let reason = error.map { "\($0)" } ?? "closed"
        complete(connection, .failure(ParleyError(.network, "connection closed before the response: \(reason)")))
    }

    private func complete(_ connection: Connection, _ result: Result<HTTPResponseMessage, ParleyError>) {
        guard let finish else { return }
        self.finish = nil
        finish(result)
        if !connection.isClosed { connection.abort(nil) }
    }
}
