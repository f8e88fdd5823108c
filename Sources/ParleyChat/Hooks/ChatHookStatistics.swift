import ParleyChannels
import ParleyStore
import Synchronization

/// Counters of the chat hooks for `/metrics`: deliveries, the outbox, the before-send hook and
/// the notification hook. The server makes one, hands it to the chat service
/// (``ChatConfiguration/hookStatistics``) and renders it with the other metrics.
public final class ChatHookStatistics: Sendable {
    /// A before-send hook call's outcome.
    enum Verdict: String, CaseIterable, Sendable {
        case allow, reject, rewrite, timeout, error
    }

    private struct State: Sendable {
        var sent = 0
        var failed = 0
        var dropped = 0
        var notificationsNeeded = 0
        var pending: Int?
        var verdicts: [Verdict: Int] = [:]
        var beforeSendLatency = DurationHistogram()
    }

    private let state = Mutex(State())

    /// Empty counters.
    public init() {}

    func delivered(events: Int) { state.withLock { $0.sent += events } }
    func failedRequest() { state.withLock { $0.failed += 1 } }
    func dropped(events: Int) { state.withLock { $0.dropped += events } }
    func notificationsNeeded(_ events: Int) { state.withLock { $0.notificationsNeeded += events } }
    func outboxPending(_ rows: Int) { state.withLock { $0.pending = rows } }

    func beforeSend(_ verdict: Verdict, since start: ContinuousClock.Instant) {
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        let nanoseconds = UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds / 1_000_000_000))
        state.withLock {
            $0.verdicts[verdict, default: 0] += 1
            $0.beforeSendLatency.record(nanoseconds: nanoseconds)
        }
    }

    /// The exposition (Prometheus text format 0.0.4).
    public func render() -> String {
        let s = state.withLock { $0 }
        var out = PrometheusText()
        out.add(
            "parley_chat_hook_events_sent_total", "counter",
            "Chat hook events an endpoint acknowledged with 2xx (webhooks and notification.needed).",
            s.sent)
        out.add(
            "parley_chat_hook_requests_failed_total", "counter", "Chat hook requests that got no 2xx answer (each is retried or given up).",
            s.failed)
        out.add(
            "parley_chat_hook_events_dropped_total", "counter",
            "Chat hook events given up: past the retry window, endpoint no longer configured, or the in-memory queue full.", s.dropped)
        if let pending = s.pending {
            out.add("parley_chat_hook_outbox_pending", "gauge", "Rows in the chat hook outbox (all nodes), as of the last poll.", pending)
        }
        out.add(
            "parley_chat_notifications_needed_total", "counter", "notification.needed events produced by the notification hook.",
            s.notificationsNeeded)
        out.family("parley_chat_before_send_calls_total", "counter", "Before-send hook calls by verdict.")
        for verdict in Verdict.allCases {
            out.sample("parley_chat_before_send_calls_total", [("verdict", verdict.rawValue)], s.verdicts[verdict] ?? 0)
        }
        let name = "parley_chat_before_send_duration_seconds"
        out.family(name, "histogram", "Time from a before-send hook request to its answer (or timeout).")
        out.histogram(
            name, [], bounds: DurationHistogram.boundsMicroseconds.map { PrometheusText.decimal($0, 1_000_000) },
            counts: s.beforeSendLatency.counts, sum: PrometheusText.decimal(s.beforeSendLatency.sumMicroseconds, 1_000_000))
        return out.text
    }
}
