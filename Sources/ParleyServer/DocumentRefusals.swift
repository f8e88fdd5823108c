import ParleyDocs
import Synchronization

/// What the server does when a y-websocket message is refused: one log line naming the
/// document, the client and the reason, counters for `/metrics`, and the delay before the
/// close for a client that keeps sending the same refused message (``RefusalBackoff``).
final class DocumentRefusals: Sendable {
    private struct State {
        var backoff = RefusalBackoff()
        var byCode: [String: Int] = [:]
        var slowed = 0
    }

    private let state = Mutex(State())
    private let logger: Logger
    private let now: @Sendable () -> Int64

    init(logger: Logger = Logger(label: "docs"), now: @escaping @Sendable () -> Int64 = ServerClock.monotonicMilliseconds) {
        self.logger = logger
        self.now = now
    }

    /// Records a refusal; returns how long to hold the connection before closing it.
    func record(
        _ error: DocumentsError, app: String, document: String, user: String, connection: String,
        message: [UInt8]
    ) -> Duration {
        let time = now()
        let delay = state.withLock { state in
            state.byCode[error.code.rawValue, default: 0] += 1
            let delay = state.backoff.record(sender: "\(app)\u{0}\(document)\u{0}\(user)", message: message, now: time)
            if delay > 0 { state.slowed += 1 }
            return delay
        }
        logger.warning(
            "document message refused",
            [
                ("app", app), ("document", document), ("user", user), ("connection", connection),
                ("code", error.code.rawValue), ("reason", error.message), ("bytes", String(message.count)),
                ("close_delay_ms", String(delay))
            ])
        return .milliseconds(delay)
    }

    /// The counters in Prometheus text format.
    func render() -> String {
        let (byCode, slowed) = state.withLock { ($0.byCode, $0.slowed) }
        var out = """
            # HELP parley_docs_refused_messages_total y-websocket messages refused (the connection closed), by error code.
            # TYPE parley_docs_refused_messages_total counter

            """
        for code in DocumentsError.Code.allCases {
            out += "parley_docs_refused_messages_total{code=\"\(code.rawValue)\"} \(byCode[code.rawValue] ?? 0)\n"
        }
        out += """
            # HELP parley_docs_refusals_delayed_total Refusals of a message the same client had sent before, closed after a delay.
            # TYPE parley_docs_refusals_delayed_total counter
            parley_docs_refusals_delayed_total \(slowed)

            """
        return out
    }
}
