import Synchronization

/// How log lines are written: `logfmt` (`time=… level=… msg="…"`) or one JSON object per line.
public enum LogFormat: String, Sendable, CaseIterable {
    /// `key=value` pairs, values quoted when needed.
    case logfmt
    /// One JSON object per line, fields as string members.
    case json
}

/// The process-wide log level and format, set once from `--log-level` and `--log-format`
/// before the server starts; every ``Logger`` reads them.
enum LogSettings {
    private static let levelRank = Atomic<Int>(Logger.Level.info.rank)
    private static let json = Atomic<Bool>(false)

    /// Lines below this level are dropped (default info).
    static var minimumLevel: Logger.Level {
        get { Logger.Level.allCases.first { $0.rank == levelRank.load(ordering: .relaxed) } ?? .info }
        set { levelRank.store(newValue.rank, ordering: .relaxed) }
    }

    /// The line format (default logfmt).
    static var format: LogFormat {
        get { json.load(ordering: .relaxed) ? .json : .logfmt }
        set { json.store(newValue == .json, ordering: .relaxed) }
    }

    /// Whether a line at `level` is written.
    static func admits(_ level: Logger.Level) -> Bool { level.rank >= levelRank.load(ordering: .relaxed) }
}
