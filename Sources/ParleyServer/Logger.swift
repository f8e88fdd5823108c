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
        var line: String
        if LogSettings.format == .json {
            line = Self.jsonLine(time: Self.timestamp(), level: level, label: label, message: message, fields: fields)
        } else {
            line = "time=\(Self.timestamp()) level=\(level.rawValue) component=\(label) msg=\(Self.quoted(message))"
            for (key, value) in fields { line += " \(key)=\(Self.quoted(value))" }
        }
        line += "\n"
        LogWriter.shared.write(line)
    }

    /// Logs at info level.
    public func info(_ message: String, _ fields: [(String, String)] = []) { log(.info, message, fields) }
    /// Logs at warning level.
    public func warning(_ message: String, _ fields: [(String, String)] = []) { log(.warning, message, fields) }
    /// Logs at error level.
    public func error(_ message: String, _ fields: [(String, String)] = []) { log(.error, message, fields) }

    static func quoted(_ value: String) -> String {
        let plain =
            !value.isEmpty && value.utf8.allSatisfy { $0 > 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "=") && $0 < 0x7F }
        if plain { return value }
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let millis = Int(now.tv_nsec / 1_000_000)
        let ms = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return
            "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(ms)Z"
    }
}
