import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One `URLSessionWebSocketTask`, opened and read for the URLSession realtime and document
/// transports.
final class URLSessionWebSocket: @unchecked Sendable {
    // @unchecked: URLSessionWebSocketTask is safe to use from any thread (URLSession
    // serialises its work); this wrapper holds nothing else.

    /// What the task received.
    enum Incoming: Sendable {
        case text([UInt8])
        case binary([UInt8])
        case closed(code: Int, reason: String)
    }

    let task: URLSessionWebSocketTask

    private init(task: URLSessionWebSocketTask) {
        self.task = task
    }

    /// Opens a WebSocket for `request` and returns once the server has answered a ping, so a
    /// refused upgrade (401, 404) fails here with its status rather than on the first read.
    static func open(_ request: URLRequest, session: URLSession, maxMessageSize: Int) async throws(ParleyError) -> URLSessionWebSocket {
        let url = request.url?.absoluteString ?? "?"
        let task = session.webSocketTask(with: request)
        task.maximumMessageSize = maxMessageSize
        task.resume()
        let socket = URLSessionWebSocket(task: task)
        let failure: (any Error)? = await withCheckedContinuation { continuation in
            task.sendPing { error in continuation.resume(returning: error) }
        }
        guard let failure else { return socket }
        task.cancel()
        if let status = (task.response as? HTTPURLResponse)?.statusCode, status != 101 {
            throw ParleyError(.server, "WebSocket upgrade refused: \(url): HTTP \(status)", status: status)
        }
        throw URLSessionHTTPTransport.error(failure, url: url)
    }

    /// Reads messages until the connection ends, then reports one `.closed` (1006 when the
    /// server sent no close code) and stops.
    func startReceiving(_ deliver: @escaping @Sendable (Incoming) -> Void) {
        let task = self.task
        Task {
            while true {
                let message: URLSessionWebSocketTask.Message
                do {
                    message = try await task.receive()
                } catch {
                    let code = task.closeCode.rawValue
                    let reason = task.closeReason.map { String(decoding: $0, as: UTF8.self) } ?? "\(error)"
                    deliver(.closed(code: code == 0 ? 1006 : code, reason: reason))
                    return
                }
                switch message {
                case .string(let text): deliver(.text(Array(text.utf8)))
                case .data(let data): deliver(.binary([UInt8](data)))
                @unknown default: continue
                }
            }
        }
    }

    /// Sends one message. A failed send is not reported here: it breaks the connection, which
    /// the receiving side reports as `.closed`.
    func send(_ message: URLSessionWebSocketTask.Message) {
        task.send(message) { _ in }
    }

    /// Closes with `code` (a code URLSession does not know is sent as 1000).
    func close(code: Int) {
        task.cancel(with: URLSessionWebSocketTask.CloseCode(rawValue: code) ?? .normalClosure, reason: nil)
    }
}
