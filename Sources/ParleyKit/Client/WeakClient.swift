/// A weak reference to a client, for its long-running tasks: they must not keep a client the
/// app has let go of alive (its deinit then closes the connection, which ends them).
struct WeakClient: Sendable {
    weak var value: ParleyClient?

    init(_ client: ParleyClient) { value = client }
}
