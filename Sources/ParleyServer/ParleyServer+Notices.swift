import ParleyChannels
import Synchronization

extension ParleyServer {
    /// Writes the channels service's notices (webhook failures, quota refusals) to the log,
    /// at most one line per kind, app and ten seconds (with the count of those left out).
    static func logNotices(of channels: ChannelsService, to logger: Logger) {
        let throttle = Mutex(NoticeThrottle())
        channels.metrics.notices.install { kind, message, fields in
            let key = ([kind] + fields.filter { $0.0 == "app" || $0.0 == "app_key" || $0.0 == "endpoint" }.map(\.1)).joined(separator: "|")
            let now = ServerClock.monotonicMilliseconds()
            guard let suppressed = throttle.withLock({ $0.admit(key, now: now) }) else { return }
            var all = [("kind", kind)] + fields
            if suppressed > 0 { all.append(("suppressed_since_last", String(suppressed))) }
            logger.warning(message, all)
        }
    }
}
