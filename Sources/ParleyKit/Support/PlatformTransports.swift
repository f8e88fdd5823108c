/// The transports a client uses when it is given none.
///
/// On Apple platforms they are Foundation's: ``URLSessionHTTPTransport``,
/// ``URLSessionRealtimeTransport`` and ``URLSessionDocumentTransport`` (TLS, proxies and App
/// Transport Security from the system). On Linux they are the socket transports over
/// ParleyNet (`SocketHTTPTransport`, `WebSocketRealtimeTransport`,
/// `WebSocketDocumentTransport`, with TLS from OpenSSL), because Linux's FoundationNetworking
/// has WebSockets only where libcurl was built with them.
public enum PlatformTransports {
    /// The default HTTP transport of this platform.
    public static func http() -> any HTTPTransport {
        #if canImport(ParleyNet)
        SocketHTTPTransport()
        #else
        URLSessionHTTPTransport()
        #endif
    }

    /// The default realtime (Pusher protocol) transport of this platform.
    public static func realtime() -> any RealtimeTransport {
        #if canImport(ParleyNet)
        WebSocketRealtimeTransport()
        #else
        URLSessionRealtimeTransport()
        #endif
    }

    /// The default y-websocket document transport of this platform.
    public static func documents() -> any DocumentTransport {
        #if canImport(ParleyNet)
        WebSocketDocumentTransport()
        #else
        URLSessionDocumentTransport()
        #endif
    }
}
