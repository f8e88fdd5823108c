import Synchronization

/// Events an operator should read in the log (a webhook that failed, a connection refused
/// over its app's quota), handed to whatever the server installs; nothing is written until
/// it does. Any thread; the receiver must be cheap or hand off.
public final class ChannelsNotices: Sendable {
    /// One notice: what happened, with key/value details (never secrets or payloads).
    public typealias Receiver = @Sendable (_ kind: String, _ message: String, _ fields: [(String, String)]) -> Void

    private let receiver = Mutex<Receiver?>(nil)

    /// Creates a sink that drops everything until ``install(_:)``.
    public init() {}

    /// Sends notices to `receiver` from now on.
    public func install(_ receiver: @escaping Receiver) {
        self.receiver.withLock { $0 = receiver }
    }

    /// Reports one event; `kind` is a stable name (`webhook_failed`, `connection_quota`).
    public func post(_ kind: String, _ message: String, _ fields: [(String, String)]) {
        guard let receiver = receiver.withLock({ $0 }) else { return }
        receiver(kind, message, fields)
    }
}
