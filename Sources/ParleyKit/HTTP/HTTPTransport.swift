/// Sends HTTP requests: the socket client in production, an in-memory server in tests.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the whole response. `progress` is told how many body bytes
    /// have gone out of how many.
    func send(_ request: HTTPRequestMessage, progress: (@Sendable (Int, Int) -> Void)?) async throws(ParleyError) -> HTTPResponseMessage
}

extension HTTPTransport {
    /// Sends `request` without progress reports.
    public func send(_ request: HTTPRequestMessage) async throws(ParleyError) -> HTTPResponseMessage {
        try await send(request, progress: nil)
    }
}
