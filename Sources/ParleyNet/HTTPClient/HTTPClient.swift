import ParleyWire

/// An HTTP/1.1 client on event loops: `http://`, and `https://` over TLS. Nothing blocks a
/// thread: name resolution runs on a short-lived thread of its own, everything else on the
/// request's loop. Connections are kept alive per server and reused (a request lost with a
/// kept connection the server had meanwhile closed is sent again on a fresh one when its
/// method is idempotent).
///
/// Every request can be cancelled: through the ``HTTPClientTask`` that
/// ``start(_:progress:completion:)`` returns, or by cancelling the Swift task awaiting
/// ``execute(_:progress:)``. Either answers at once with ``HTTPClientError/Code/cancelled``
/// and aborts the request's connection.
public final class HTTPClient: Sendable {
    /// The client's settings.
    public let configuration: HTTPClientConfiguration
    private let group: EventLoopGroup
    private let pool: HTTPConnectionPool?

    /// Creates a client whose requests run on `group`'s loops in turn.
    public init(group: EventLoopGroup, configuration: HTTPClientConfiguration = HTTPClientConfiguration()) {
        self.group = group
        self.configuration = configuration
        pool =
            configuration.maxIdleConnectionsPerServer > 0
            ? HTTPConnectionPool(
                maximumPerServer: configuration.maxIdleConnectionsPerServer,
                idleTimeout: configuration.idleConnectionTimeout)
            : nil
    }

    /// How many idle keep-alive connections wait for reuse now.
    public var idleConnectionCount: Int { pool?.idleCount ?? 0 }

    /// Sends `request` and returns the whole response. Cancelling the calling task cancels
    /// the request. `progress` is told how many body bytes have gone out of how many.
    public func execute(
        _ request: HTTPClientRequest,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async throws(HTTPClientError) -> HTTPClientResponse {
        let task = HTTPClientTask(loop: group.next())
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<HTTPClientResponse, HTTPClientError>, Never>) in
                run(request, task: task, progress: progress) { continuation.resume(returning: $0) }
            }
        } onCancel: {
            task.cancel()
        }
        return try result.get()
    }

    /// Starts `request`; `completion` runs exactly once, on the request's loop. Any thread.
    @discardableResult
    public func start(
        _ request: HTTPClientRequest, progress: (@Sendable (Int, Int) -> Void)? = nil,
        completion: @escaping @Sendable (Result<HTTPClientResponse, HTTPClientError>) -> Void
    ) -> HTTPClientTask {
        let task = HTTPClientTask(loop: group.next())
        run(request, task: task, progress: progress, completion: completion)
        return task
    }

    private func run(
        _ request: HTTPClientRequest, task: HTTPClientTask, progress: (@Sendable (Int, Int) -> Void)?,
        completion: @escaping @Sendable (Result<HTTPClientResponse, HTTPClientError>) -> Void
    ) {
        let loop = task.loop
        guard let url = HTTPClientRequest.parseURL(request.url) else {
            hop(loop) {
                if task.begin(completion) {
                    task.finish(.failure(HTTPClientError(.invalidURL, "not an http:// or https:// URL: \(request.url)")))
                }
            }
            return
        }
        let plan = HTTPClientPlan(
            request: request, url: url, keepAlive: pool != nil, configuration: configuration, pool: pool,
            progress: progress)
        if let literal = SocketAddress(host: url.host, port: url.port) {
            hop(loop) { if task.begin(completion) { plan.send(on: task, to: literal, reuse: true) } }
            return
        }
        hop(loop) {
            guard task.begin(completion) else { return }
            // Name resolution blocks: keep it off the loop.
            BlockingWork.run {
                let resolved: Result<[SocketAddress], NetError>
                do throws(NetError) { resolved = .success(try SocketAddress.resolve(host: url.host, port: url.port)) } catch {
                    resolved = .failure(error)
                }
                loop.execute {
                    guard !task.isCancelled else { return }
                    switch resolved {
                    case .success(let addresses) where !addresses.isEmpty: plan.send(on: task, to: addresses[0], reuse: true)
                    case .success: task.finish(.failure(HTTPClientError(.connectFailed, "no address for \(url.host)")))
                    case .failure(let error): task.finish(.failure(HTTPClientError(.connectFailed, "resolving \(url.host): \(error)")))
                    }
                }
            }
        }
    }
}
