import ParleyWire

/// What one ``HTTPClient`` request needs on its loop: the bytes to send, how to read the
/// answer, and where idle connections are parked. Runs the exchange on a parked or a new
/// connection, and once more on a new one when a parked one turns out dead.
struct HTTPClientPlan: Sendable {
    let bytes: [UInt8]
    let bodyCount: Int
    let isHead: Bool
    let isIdempotent: Bool
    let url: WebSocketURL
    let configuration: HTTPClientConfiguration
    let pool: HTTPConnectionPool?
    let progress: (@Sendable (Int, Int) -> Void)?

    init(
        request: HTTPClientRequest, url: WebSocketURL, keepAlive: Bool, configuration: HTTPClientConfiguration,
        pool: HTTPConnectionPool?, progress: (@Sendable (Int, Int) -> Void)?
    ) {
        bytes = request.encoded(for: url, keepAlive: keepAlive)
        bodyCount = request.body.count
        isHead = request.method == "HEAD"
        isIdempotent = request.isIdempotent
        self.url = url
        self.configuration = configuration
        self.pool = pool
        self.progress = progress
    }

    /// Sends on a parked connection to `address` (when `reuse` and one is idle on this loop)
    /// or a new one. Loop thread.
    func send(on task: HTTPClientTask, to address: SocketAddress, reuse: Bool) {
        guard !task.isCancelled else { return }
        // TLS and plain connections to one address are different servers to the pool.
        let server = (url.isSecure ? "tls:\(url.host)@" : "") + address.description
        if reuse, let idle = pool?.take(server, on: task.loop) {
            exchange(on: idle, task: task, address: address, server: server, reused: true)
            return
        }
        Connection.connect(to: address, on: task.loop, timeout: configuration.timeout) { connected in
            switch connected {
            case .failure(let error):
                task.finish(.failure(HTTPClientError(.connectFailed, "connecting to \(address): \(error)")))
            case .success(let connection):
                // Cancelled while connecting: the caller has its answer already.
                guard !task.isCancelled else { return connection.abort(nil) }
                if url.isSecure {
                    do throws(HTTPClientError) { try startTLS(on: connection) } catch {
                        connection.abort(nil)
                        return task.finish(.failure(error))
                    }
                }
                exchange(on: connection, task: task, address: address, server: server, reused: false)
            }
        }
    }

    private func startTLS(on connection: Connection) throws(HTTPClientError) {
        do throws(NetError) {
            let context: TLSContext
            if let given = configuration.tls { context = given } else { context = try TLSContext.systemClient() }
            try connection.startTLS(context: context, role: .client(serverName: url.host), handshakeTimeout: configuration.timeout)
        } catch {
            throw HTTPClientError(.tls, "TLS to \(url.host): \(error)")
        }
    }

    private func exchange(on connection: Connection, task: HTTPClientTask, address: SocketAddress, server: String, reused: Bool) {
        let parser = HTTPResponseParser(bodyLimit: configuration.maxResponseBytes, isHeadRequest: isHead)
        let exchange = HTTPClientExchange(
            parser: parser, bodyCount: bodyCount, progress: progress,
            release: pool.map { pool in { pool.park(connection, server: server) } }
        ) { outcome in
            if task.isCancelled { return task.finish(.failure(.cancelled)) }
            if case .failure = outcome.result, reused, !outcome.sawResponseBytes, isIdempotent {
                task.exchange = nil
                return send(on: task, to: address, reuse: false)
            }
            task.finish(outcome.result)
        }
        task.exchange = exchange
        connection.handler = exchange
        connection.idleTimeout = configuration.timeout
        connection.maxOutboundBytes = max(connection.maxOutboundBytes, bytes.count + 1024)
        exchange.start(connection, bytes)
    }
}
