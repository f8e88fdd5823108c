#if canImport(ParleyNet)
import ParleyNet
import ParleyWire

/// An HTTP/1.1 client over TCP: `http://`, and `https://` over TLS (OpenSSL; the system's CA
/// certificates unless given a CA file), on ParleyNet's `HTTPClient`. Connections are kept
/// alive and reused for later requests to the same server; a request on a reused connection
/// that the server had meanwhile closed is sent again on a fresh one when its method is
/// idempotent. Cancelling the task awaiting ``send(_:progress:)`` cancels the request: it
/// throws ``ParleyError/Code/cancelled`` at once and its connection is closed, never reused.
public struct SocketHTTPTransport: HTTPTransport {
    private let client: Result<HTTPClient, ParleyError>
    private let settings: HTTPClientConfiguration

    /// Creates a transport. It keeps up to `maxIdleConnections` idle connections per server
    /// (0: a new connection per request) and closes each after `idleConnectionTimeout` unused.
    /// `https://` servers must present a certificate issued by a CA in `caFile` (PEM) when it
    /// is given, else by one the system trusts.
    public init(
        timeout: Duration = .seconds(30), maxResponseBytes: Int = 64 << 20,
        maxIdleConnections: Int = 4, idleConnectionTimeout: Duration = .seconds(20), caFile: String? = nil
    ) {
        var settings = HTTPClientConfiguration(
            timeout: timeout, maxResponseBytes: maxResponseBytes,
            maxIdleConnectionsPerServer: maxIdleConnections,
            idleConnectionTimeout: idleConnectionTimeout)
        let tls = Result { () throws(ParleyError) in try NetRuntime.tlsContext(caFile: caFile) }
        self.settings = settings
        client = tls.flatMap { context in
            settings.tls = context
            return NetRuntime.group().map { HTTPClient(group: $0, configuration: settings) }
        }
    }

    /// Give up when no byte moves for this long.
    public var timeout: Duration { settings.timeout }
    /// Largest response body accepted.
    public var maxResponseBytes: Int { settings.maxResponseBytes }

    /// How many idle keep-alive connections wait for reuse now.
    public var idleConnectionCount: Int { (try? client.get())?.idleConnectionCount ?? 0 }

    /// Sends the request and returns the whole response (see ``HTTPTransport``).
    public func send(
        _ request: HTTPRequestMessage, progress: (@Sendable (Int, Int) -> Void)?
    ) async throws(ParleyError) -> HTTPResponseMessage {
        let client = try client.get()
        let outgoing = HTTPClientRequest(method: request.method, url: request.url, headers: request.headers, body: request.body)
        do throws(HTTPClientError) {
            let response = try await client.execute(outgoing, progress: progress)
            return HTTPResponseMessage(status: response.status, headers: response.headers, body: response.body)
        } catch {
            throw Self.parleyError(error)
        }
    }

    /// The SDK's error for a client failure.
    static func parleyError(_ error: HTTPClientError) -> ParleyError {
        switch error.code {
        case .invalidURL: ParleyError(.invalidArgument, error.message)
        case .cancelled: ParleyError(.cancelled, error.message)
        case .timedOut: ParleyError(.timedOut, error.message)
        case .tls, .connectFailed, .network, .malformedResponse: ParleyError(.network, error.message)
        }
    }
}
#endif
