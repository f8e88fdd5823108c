import Dispatch
import ParleyChat
import ParleyNet
import ParleyWire
import Synchronization

/// The chat hooks go through the same HTTP client as the Pusher webhooks; a request that has
/// not been answered within its own timeout is cancelled (the before-send hook's `timeout_ms`
/// is far shorter than the client's idle timeout).
extension HTTPClientWebhookPoster: ChatHookPoster {
    private static let timers = DispatchQueue(label: "parley.chat-hooks.timeouts")

    func post(_ request: ChatHookRequest, completion: @escaping @Sendable (ChatHookAnswer?) -> Void) {
        var headers = HTTPHeaders()
        for (name, value) in request.headers { headers.add(name, value) }
        let answered = AnsweredFlag()
        let finish: @Sendable (ChatHookAnswer?) -> Void = { answer in
            guard answered.claim() else { return }
            completion(answer)
        }
        let task = client.start(HTTPClientRequest(method: "POST", url: request.url.description, headers: headers, body: request.body)) {
            result in
            finish(try? result.map { ChatHookAnswer(status: $0.status, body: $0.body) }.get())
        }
        Self.timers.asyncAfter(deadline: .now() + .milliseconds(request.timeoutMilliseconds)) {
            finish(nil)
            task.cancel()
        }
    }
}

/// Lets the first of the response and the timeout answer, once.
private final class AnsweredFlag: Sendable {
    private let answered = Atomic<Bool>(false)

    /// True for the first caller only.
    func claim() -> Bool { !answered.exchange(true, ordering: .acquiringAndReleasing) }
}
