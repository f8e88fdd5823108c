/// What a non-blocking call did: its result, or nothing because it would have had to wait.
///
/// Waiting is the normal state of a non-blocking socket, so it is a value to switch over
/// rather than an error to catch.
public enum IOResult<Value: ~Copyable>: ~Copyable {
    /// The call completed with this result.
    case processed(Value)
    /// The call would have blocked (EAGAIN/EWOULDBLOCK); try again on the next readiness report.
    case wouldBlock
}

extension IOResult: Copyable where Value: Copyable {}

extension IOResult: Equatable where Value: Equatable {}
