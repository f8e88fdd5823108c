import ParleyPlatform

/// Severity of a log line from the networking layer.
public enum NetLogLevel: String, Sendable, Comparable {
    case debug, info, warning, error

    private var rank: Int {
        switch self {
        case .debug: 0
        case .info: 1
        case .warning: 2
        case .error: 3
        }
    }

    public static func < (lhs: NetLogLevel, rhs: NetLogLevel) -> Bool { lhs.rank < rhs.rank }
}

/// Where the networking layer writes its (rare) log lines; the server wires its own logger in.
public struct NetLogger: Sendable {
    /// Receives each line with its level.
    public var sink: @Sendable (NetLogLevel, String) -> Void

    /// Creates a logger from a sink.
    public init(_ sink: @escaping @Sendable (NetLogLevel, String) -> Void) { self.sink = sink }

    /// Writes `level: message` lines at `minimum` and above to standard error.
    public static func standardError(minimum: NetLogLevel = .info) -> NetLogger {
        NetLogger { level, message in
            guard level >= minimum else { return }
            let line = "parley-net \(level.rawValue): \(message)\n"
            _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
        }
    }

    /// Discards everything.
    public static let silent = NetLogger { _, _ in }

    /// Logs one line.
    public func log(_ level: NetLogLevel, _ message: @autoclosure () -> String) { sink(level, message()) }
}
