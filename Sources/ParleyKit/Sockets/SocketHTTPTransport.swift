#if canImport(ParleyNet)
import ParleyNet
import ParleyWire

/// An HTTP/1.1 client over TCP: `http://`, and `https://` over TLS (OpenSSL; the system's CA
/// certificates unless given a CA file). Connections are kept alive and reused
/// for later requests to the same server; a request on a reused connection that the server
/// had meanwhile closed is sent again on a fresh one when its method is idempotent.
public struct SocketHTTPTransport: HTTPTransport {
    /// Give up when no byte moves for this long.
    public var timeout: Duration
    /// Largest response body accepted.
    public var maxResponseBytes: Int
    private let pool: HTTPConnectionPool?
    private let tls: Result<TLSContext, NetError>?

    /// Creates a transport. It keeps up to `maxIdleConnections` idle connections per server
    /// (0: a new connection per request) and closes each after `idleConnectionTimeout` unused.
    /// `https://` servers must present a certificate issued by a CA in `caFile` (PEM) when it
    /// is given, else by one the system trusts.
    public init(timeout: Duration = .seconds(30), maxResponseBytes: Int = 64 << 20,
                maxIdleConnections: Int = 4, idleConnectionTimeout: Duration = .seconds(20), caFile: String? = nil) {
        self.timeout = timeout
        tls = caFile.map { file in Result { () throws(NetError) in try TLSContext.client(trusting: file) } }
        self.maxResponseBytes = maxResponseBytes
        pool = maxIdleConnections > 0 ? HTTPConnectionPool(maximumPerServer: maxIdleConnections, idleTimeout: idleConnectionTimeout) : nil
    }

    /// How many idle keep-alive connections wait for reuse now.
    public var idleConnectionCount: Int { pool?.idleCount ?? 0 }

    /// Sends the request and returns the whole response (see ``HTTPTransport``).
    public func send(_ request: HTTPRequestMessage, progress: (@Sendable (Int, Int) -> Void)?) async throws(ParleyError) -> HTTPResponseMessage {
        guard let url = HTTPRequestEncoder.parse(request.url) else {
            throw ParleyError(.invalidArgument, "not an http:// or https:// URL: \(request.url)")
        }
        let secure = try url.isSecure ? (context: tlsContext(), serverName: url.host) : nil
        let loop = try NetRuntime.loop()
        let address = try await NetRuntime.address(host: url.host, port: url.port)
        let bytes = HTTPRequestEncoder.encode(request, url: url, keepAlive: pool != nil)
        let head = request.method == "HEAD"
        let first = await exchange(bytes, bodyCount: request.body.count, head: head, address: address, secure: secure,
                                   loop: loop, reuse: true, progress: progress)
        if case .failure = first.outcome.result, first.reused, !first.outcome.sawResponseBytes, Self.isIdempotent(request.method) {
            let fresh = await exchange(bytes, bodyCount: request.body.count, head: head, address: address, secure: secure,
                                       loop: loop, reuse: false, progress: progress)
            return try fresh.outcome.result.get()
        }
        return try first.outcome.result.get()
    }

    /// One exchange on a pooled connection (when `reuse` and one is idle) or a new one.
    private func exchange(_ bytes: [UInt8], bodyCount: Int, head: Bool, address: SocketAddress,
                          secure: (context: TLSContext, serverName: String)?, loop: EventLoop, reuse: Bool, progress: (@Sendable (Int, Int) -> Void)?) async -> (outcome: HTTPClientExchange.Outcome, reused: Bool) {
        let parser = HTTPResponseParser(bodyLimit: maxResponseBytes, isHeadRequest: head)
        let timeout = self.timeout
        let pool = self.pool
        // TLS and plain connections to one address are different servers to the pool.
        let server = (secure.map { "tls:\($0.serverName)@" } ?? "") + address.description
        return await withCheckedContinuation { continuation in
            loop.execute {
                func run(on connection: Connection, reused: Bool) {
                    let exchange = HTTPClientExchange(parser: parser, bodyCount: bodyCount, progress: progress,
                                                      release: pool.map { pool in { pool.park($0, server: server) } }) {
                        continuation.resume(returning: ($0, reused))
                    }
                    connection.handler = exchange
                    connection.idleTimeout = timeout
                    connection.maxOutboundBytes = max(connection.maxOutboundBytes, bytes.count + 1024)
                    exchange.start(connection, bytes)
                }
                if reuse, let idle = pool?.take(server, on: loop) {
                    run(on: idle, reused: true)
                    return
                }
                Connection.connect(to: address, on: loop, timeout: timeout) { connected in
                    switch connected {
                    case .failure(let error):
                        let failure = ParleyError(.network, "connecting to \(address): \(error)")
                        continuation.resume(returning: (HTTPClientExchange.Outcome(result: .failure(failure), sawResponseBytes: false), false))
                    case .success(let connection):
                        if let secure {
                            do throws(NetError) {
                                try connection.startTLS(context: secure.context, role: .client(serverName: secure.serverName),
                                                        handshakeTimeout: timeout)
                            } catch {
                                connection.abort(nil)
                                let failure = ParleyError(.network, "TLS to \(address): \(error)")
                                continuation.resume(returning: (HTTPClientExchange.Outcome(result: .failure(failure), sawResponseBytes: false), false))
                                return
                            }
                        }
                        run(on: connection, reused: false)
                    }
                }
            }
        }
    }

    /// The TLS client context: the CA file's when one was given, else the system's.
    private func tlsContext() throws(ParleyError) -> TLSContext {
        do throws(NetError) {
            if let tls { return try tls.get() }
            return try TLSContext.systemClient()
        } catch {
            throw ParleyError(.invalidArgument, "TLS: \(error)")
        }
    }

    /// Methods that may be sent twice without changing the outcome (RFC 9110 §9.2.2).
    static func isIdempotent(_ method: String) -> Bool {
        ["GET", "HEAD", "PUT", "DELETE", "OPTIONS"].contains(method)
    }
}
#endif
