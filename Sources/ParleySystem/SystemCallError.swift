import ParleyPlatform

/// A failed system call: which call, the `errno` it left, and a stable code for that errno.
public struct SystemCallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Stable identifiers for the errno values callers tell apart; everything else is ``io``.
    /// A code ParleyNet's `NetError` also has carries the same name after the prefix.
    public enum Code: String, Sendable, CaseIterable {
        /// The peer reset the connection (ECONNRESET).
        case connectionReset = "system.connection_reset"
        /// Writing to a connection the peer already closed (EPIPE).
        case brokenPipe = "system.broken_pipe"
        /// Nobody listens at the address (ECONNREFUSED).
        case connectionRefused = "system.connection_refused"
        /// The address is taken (EADDRINUSE).
        case addressInUse = "system.address_in_use"
        /// The call ran out of time (ETIMEDOUT).
        case timedOut = "system.timed_out"
        /// Out of file descriptors (EMFILE/ENFILE).
        case tooManyOpenFiles = "system.too_many_open_files"
        /// A malformed argument (EINVAL).
        case invalidArgument = "system.invalid_argument"
        /// No such file or directory (ENOENT).
        case notFound = "system.not_found"
        /// The file exists already (EEXIST).
        case alreadyExists = "system.already_exists"
        /// Not allowed (EACCES/EPERM).
        case permissionDenied = "system.permission_denied"
        /// The device is full (ENOSPC/EDQUOT).
        case noSpace = "system.no_space"
        /// Any other errno.
        case io = "system.io"

        /// The code for an errno value.
        public init(errno value: Int32) {
            switch value {
            case ECONNRESET: self = .connectionReset
            case EPIPE: self = .brokenPipe
            case ECONNREFUSED: self = .connectionRefused
            case EADDRINUSE: self = .addressInUse
            case ETIMEDOUT: self = .timedOut
            case EMFILE, ENFILE: self = .tooManyOpenFiles
            case EINVAL: self = .invalidArgument
            case ENOENT: self = .notFound
            case EEXIST: self = .alreadyExists
            case EACCES, EPERM: self = .permissionDenied
            case ENOSPC, EDQUOT: self = .noSpace
            default: self = .io
            }
        }
    }

    /// The system call that failed, as named in its manual page (`read`, `epoll_ctl`...).
    public let call: String
    /// The `errno` it left.
    public let errno: Int32

    /// Creates an error for `call` failing with `errno`.
    public init(call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    /// The stable code for ``errno``.
    public var code: Code { Code(errno: errno) }

    /// The errno's text as the C library words it.
    public var reason: String { String(cString: strerror(errno)) }

    public var description: String { "\(code.rawValue): \(call) (\(reason))" }
}
