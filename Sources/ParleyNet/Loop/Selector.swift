/// What a registration wants to be told about.
struct SelectorInterest: OptionSet, Sendable {
    let rawValue: UInt8
    static let read = SelectorInterest(rawValue: 1)
    static let write = SelectorInterest(rawValue: 2)
}

/// One readiness report: the registration's token and what it is ready for.
struct SelectorEvent {
    /// The token given at registration (slot index and generation, see ``EventLoop``).
    var token: UInt64
    var readable: Bool
    var writable: Bool
    /// The peer hung up or the socket has a pending error; a read or write will tell which.
    var hangup: Bool
}

/// A readiness multiplexer owned by exactly one ``EventLoop`` and used only on its thread.
///
/// The backends are level-triggered: a ready fd keeps being reported until it is drained,
/// so a connection may stop reading after a bounded amount of work per wake (fairness)
/// without losing the readiness.
protocol Selector: AnyObject {
    /// Starts watching `fd`.
    func register(fd: Int32, token: UInt64, interest: SelectorInterest) throws(NetError)
    /// Changes what `fd` is watched for.
    func reregister(fd: Int32, token: UInt64, interest: SelectorInterest) throws(NetError)
    /// Stops watching `fd`; must be called before the fd is closed.
    func deregister(fd: Int32)
    /// Waits up to `timeoutMilliseconds` (-1: forever) and writes at most `events.count`
    /// reports into `events`, returning how many.
    func wait(timeoutMilliseconds: Int32, into events: UnsafeMutableBufferPointer<SelectorEvent>) -> Int
    /// Releases the kernel object.
    func close()
}
