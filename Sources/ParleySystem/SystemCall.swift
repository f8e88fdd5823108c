import ParleyPlatform

/// The one place system calls are retried and their failures turned into ``SystemCallError``.
///
/// A call interrupted by a signal (EINTR) is simply made again, so no caller repeats that
/// loop. Calls on non-blocking descriptors go through ``nonBlocking(_:_:)``, where "would
/// block" comes back as ``IOResult/wouldBlock``. `close` is deliberately not here: on Linux
/// the descriptor is gone even when close reports EINTR, and retrying could close a
/// descriptor another thread has just been given (see ``FileDescriptor/close()``).
public enum SystemCall {
    /// Runs `body` (a call returning -1 and setting errno on failure) until it is not
    /// interrupted; throws the failure with `name`.
    @inlinable
    public static func retrying<Result: FixedWidthInteger & SignedInteger>(
        _ name: StaticString, _ body: () -> Result
    ) throws(SystemCallError) -> Result {
        while true {
            let result = body()
            if result >= 0 { return result }
            let error = errno
            if error == EINTR { continue }
            throw SystemCallError(call: name.description, errno: error)
        }
    }

    /// Like ``retrying(_:_:)`` for a non-blocking descriptor: EAGAIN/EWOULDBLOCK become
    /// ``IOResult/wouldBlock``.
    @inlinable
    public static func nonBlocking<Result: FixedWidthInteger & SignedInteger>(
        _ name: StaticString, _ body: () -> Result
    ) throws(SystemCallError) -> IOResult<Result> {
        while true {
            let result = body()
            if result >= 0 { return .processed(result) }
            let error = errno
            if error == EINTR { continue }
            if error == EAGAIN || error == EWOULDBLOCK { return .wouldBlock }
            throw SystemCallError(call: name.description, errno: error)
        }
    }
}
