/// An event loop as the hub sees it: something that runs work on its own thread, in order.
///
/// ParleyNet's event loops conform in the service; tests use `ManualHubLoop` (ParleyChannelsTesting).
public protocol HubLoop: AnyObject, Sendable {
    /// Runs `work` on the loop's thread after what is already queued (FIFO).
    func execute(_ work: @escaping @Sendable () -> Void)
}
