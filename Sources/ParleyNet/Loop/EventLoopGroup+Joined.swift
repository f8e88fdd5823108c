extension EventLoopGroup {
    /// Waits until every loop has exited, as ``join()`` does, but from async code: the join
    /// blocks a short-lived thread of its own, not one of the caller's executor. Not from one
    /// of the group's loops.
    public func joined() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            BlockingWork.run {
                self.join()
                continuation.resume()
            }
        }
    }
}
