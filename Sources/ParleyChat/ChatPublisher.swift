/// Where the chat service hands its events after each durable write.
///
/// Events of one call come in one batch, in the order subscribers should see them.
/// Implementations must not block for long: the request waits for `publish` to return.
public protocol ChatPublisher: Sendable {
    /// Publishes events in the app's channels namespace.
    func publish(app: String, events: [ChatEvent])
}
