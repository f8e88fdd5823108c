#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
