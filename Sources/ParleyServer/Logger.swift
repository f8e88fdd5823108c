import ParleyPlatform

/// Writes structured log lines (`time=… level=… msg="…" key=value`, or JSON with
/// `--log-format json`) to standard error.
///
/// One line per event, handed to ``LogWriter`` (its own thread, in order), so lines from
/// several threads never interleave and no caller waits for standard error.
/// The process-wide `--log-level` applies on top of each logger's own ``minimumLevel``.
public struct Logger: Sendable {
    /// Severity of a log line.
    public enum Level: String, Sendable, Comparable, CaseIterable {
        case debug, info, warning, error
        public static func < (a: Level, b: Level) -> Bool { a.rank < b.rank }
        var rank: Int {
            switch self {
            case .debug: 0;
            case .info: 1;
            case .warning: 2;
            case .error: 3
            }
        }
    }

    /// The component name written on every line.
    public var label: String
    /// Lines below this level are dropped.
    public var minimumLevel: Level

    /// Creates a logger for a component.
    public init(label: String, minimumLevel: Level = .debug) {
        self.label = label
        self.minimumLevel = minimumLevel
    }

    /// Logs a message with key/value fields.
    public func log(_ level: Level, _ message: String, _ fields: [(String, String)] = []) {
        guard level >= minimumLevel, LogSettings.admits(level) else { return }
        if LogSettings.format == .json {
            LogWriter.shared.write(
                Self.jsonLine(time: Self.timestamp(), level: level, label: label, message: message, fields: fields) + "\n")
        } else {
            LogWriter.shared.write(Self.textLine(time: Self.now(), level: level, label: label, message: message, fields: fields))
        }
    }

    /// Logs at info level.
    public func info(_ message: String, _ fields: [(String, String)] = []) { log(.info, message, fields) }
    /// Logs at warning level.
    public func warning(_ message: String, _ fields: [(String, String)] = []) { log(.warning, message, fields) }
    /// Logs at error level.
    public func error(_ message: String, _ fields: [(String, String)] = []) { log(.error, message, fields) }

    static func quoted(_ value: String) -> String {
        var bytes: [UInt8] = []
        appendQuoted(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func timestamp() -> String {
        var bytes: [UInt8] = []
        appendTimestamp(now(), to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
