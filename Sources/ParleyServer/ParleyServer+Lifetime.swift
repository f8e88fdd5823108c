import ParleyNet

extension ParleyServer {
    /// Returns once the event loops have exited (after ``shutdown(completion:)``), without
    /// holding a thread of the caller's executor meanwhile.
    public func stopped() async { await group.joined() }
}
