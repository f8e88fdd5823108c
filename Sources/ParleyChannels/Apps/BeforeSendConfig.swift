/// The synchronous hook asked before each message (send and edit) is stored.
public struct BeforeSendConfig: Sendable, Equatable {
    /// What happens when the endpoint does not answer in time or answers nonsense.
    public enum FailurePolicy: String, Sendable, CaseIterable {
        /// Store the message as sent (fail open).
        case allow
        /// Refuse the message with 503 `hook_unavailable` (fail closed).
        case reject
    }

    /// The endpoint.
    public var url: WebhookURL
    /// Milliseconds to wait for the answer.
    public var timeoutMilliseconds: Int = 2000
    /// What a timeout or failure means.
    public var onFailure: FailurePolicy = .allow

    /// Creates a hook.
    public init(url: WebhookURL, timeoutMilliseconds: Int = 2000, onFailure: FailurePolicy = .allow) {
        self.url = url
        self.timeoutMilliseconds = timeoutMilliseconds
        self.onFailure = onFailure
    }
}
