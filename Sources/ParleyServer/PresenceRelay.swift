import ParleyChannels
import ParleyChat

/// Tells the chat service when realtime connections sign in and close, so it can announce
/// online and offline; keeps the hub's order (a connection's sign-in before its sign-out)
/// by feeding one stream that a single task drains.
final class PresenceRelay: SignedInUserObserver {
    private enum Change: Sendable {
        case online(app: String, user: String)
        case offline(app: String, user: String)
    }

    private let continuation: AsyncStream<Change>.Continuation

    /// Starts the draining task; it ends when the relay is released.
    init(chat: ChatService) {
        let (stream, continuation) = AsyncStream<Change>.makeStream(bufferingPolicy: .unbounded)
        self.continuation = continuation
        Task {
            for await change in stream {
                switch change {
                case .online(let app, let user): await chat.userOnline(app: app, user: user)
                case .offline(let app, let user): await chat.userOffline(app: app, user: user)
                }
            }
        }
    }

    deinit { continuation.finish() }

    func userSignedIn(app: AppConfig, userID: String, socketID: String) {
        continuation.yield(.online(app: app.id, user: userID))
    }

    func userSignedOut(app: AppConfig, userID: String, socketID: String) {
        continuation.yield(.offline(app: app.id, user: userID))
    }
}
