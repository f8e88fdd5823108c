import ParleyWire

/// One request started by ``HTTPClient/start(_:progress:completion:)``: cancel it from any thread.
///
/// Cancelling completes the request at once with ``HTTPClientError/Code/cancelled`` and
/// aborts its connection (a half-answered connection is never parked for reuse); a
/// request that already finished is left alone.
public final class HTTPClientTask: @unchecked Sendable {
    // @unchecked: every mutable property is touched only on `loop`'s thread (the public
    // methods hop there).

    /// The loop the request runs on.
    public let loop: EventLoop
    private var completion: (@Sendable (Result<HTTPClientResponse, HTTPClientError>) -> Void)?
    /// The exchange on a connection, once one runs.
    var exchange: HTTPClientExchange?
    /// Set by ``cancel()``; each later step of the request checks it.
    private(set) var isCancelled = false

    init(loop: EventLoop) { self.loop = loop }

    /// Stops the request; its completion gets ``HTTPClientError/Code/cancelled`` unless it
    /// already has its answer. Any thread.
    public func cancel() {
        hop(loop) { [self] in
            isCancelled = true
            if let exchange {
                exchange.cancel()
            } else {
                finish(.failure(.cancelled))
            }
        }
    }

    /// Installs the completion; false when the request was cancelled first (then it has
    /// already been told). Loop thread.
    func begin(_ completion: @escaping @Sendable (Result<HTTPClientResponse, HTTPClientError>) -> Void) -> Bool {
        self.completion = completion
        guard !isCancelled else {
            finish(.failure(.cancelled))
            return false
        }
        return true
    }

    /// Reports the result once; later calls do nothing. Loop thread.
    func finish(_ result: Result<HTTPClientResponse, HTTPClientError>) {
        guard let completion else { return }
        self.completion = nil
        exchange = nil
        completion(result)
    }
}
