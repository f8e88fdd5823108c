/// Sends chat hook requests. `post` returns at once; the server's poster runs the request on
/// the event loops' HTTP client (the one the Pusher webhooks use), so a slow endpoint holds a
/// connection and a timer, never a thread.
public protocol ChatHookPoster: Sendable {
    /// Starts the POST; `completion` gets the answer, or nil when none came in time, exactly once
    /// and from any thread.
    func post(_ request: ChatHookRequest, completion: @escaping @Sendable (ChatHookAnswer?) -> Void)
}
