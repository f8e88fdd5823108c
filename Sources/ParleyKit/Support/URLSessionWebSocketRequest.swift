import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `URLRequest` that opens a WebSocket through URLSession.
enum URLSessionWebSocketRequest {
    /// A request for a `ws://` or `wss://` URL with extra header fields; anything else fails
    /// with ``ParleyError/Code/invalidArgument``.
    static func make(_ text: String, timeout: Duration, headers: [String: String]) throws(ParleyError) -> URLRequest {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "ws" || scheme == "wss",
            url.host != nil
        else {
            throw ParleyError(.invalidArgument, "not a ws:// or wss:// URL: \(text)")
        }
        var request = URLRequest(url: url)
        request.timeoutInterval = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }
}
