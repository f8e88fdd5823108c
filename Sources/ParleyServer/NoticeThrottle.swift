/// Keeps a flood of one kind of log line down to a line per window: the first notice of a key
/// in a window is written, the rest are counted and the count rides on the next line written.
/// A value; time (monotonic milliseconds) is passed in.
struct NoticeThrottle: Sendable {
    /// Milliseconds during which further notices of one key are only counted.
    let windowMilliseconds: Int64
    private var windows: [String: (start: Int64, suppressed: Int)] = [:]

    init(windowMilliseconds: Int64 = 10_000) {
        self.windowMilliseconds = windowMilliseconds
    }

    /// nil: drop this notice (counted); otherwise write it, noting how many were dropped since the last.
    mutating func admit(_ key: String, now: Int64) -> Int? {
        if let window = windows[key], now - window.start < windowMilliseconds {
            windows[key] = (window.start, window.suppressed + 1)
            return nil
        }
        let suppressed = windows[key]?.suppressed ?? 0
        windows[key] = (now, 0)
        if windows.count > 1024 { windows = windows.filter { now - $0.value.start < windowMilliseconds } }
        return suppressed
    }
}
