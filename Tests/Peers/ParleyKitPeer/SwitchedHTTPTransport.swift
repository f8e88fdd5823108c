import ParleyKit
import ParleyWire

/// HTTP through the ``NetworkSwitch``: refused at once while the network is off; injected
/// history failures answer 503 without asking the server.
struct SwitchedHTTPTransport: HTTPTransport {
    let network: NetworkSwitch
    let inner: any HTTPTransport

    func send(_ request: HTTPRequestMessage, progress: (@Sendable (Int, Int) -> Void)?) async throws(ParleyError) -> HTTPResponseMessage {
        guard network.isOn else { throw ParleyError(.network, "network is off") }
        if request.method == "GET", Self.isHistory(request.url), network.takeHistoryFailure() {
            var headers = HTTPHeaders()
            headers.add("Content-Type", "application/json")
            return HTTPResponseMessage(
                status: 503, headers: headers,
                body: Array(#"{"error":{"code":"unavailable","message":"injected history failure"}}"#.utf8))
        }
        return try await inner.send(request, progress: progress)
    }

    /// `…/v1/rooms/{id}/messages?…`: a history read.
    private static func isHistory(_ url: String) -> Bool {
        let path = url.split(separator: "?", maxSplits: 1).first ?? ""
        return path.contains("/v1/rooms/") && path.hasSuffix("/messages")
    }
}
