import ParleyPlatform

/// A terminal call that failed.
public struct TerminalError: Error, CustomStringConvertible {
    /// The failing call.
    public let call: String
    /// errno's text.
    public let reason: String

    static func fromErrno(_ call: String) -> TerminalError {
        TerminalError(call: call, reason: String(cString: strerror(errno)))
    }

    public var description: String { "\(call): \(reason)" }
}
