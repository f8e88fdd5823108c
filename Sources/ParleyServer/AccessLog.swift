import ParleyNet

/// The access log: one info line per answered HTTP request (`component=access`), with the
/// method, the route's pattern (never the path's values or the query, which may hold tokens),
/// status, duration, body bytes each way, client address, and the app and user it was
/// served for when known. Never a body or a credential.
enum AccessLog {
    private static let logger = Logger(label: "access")

    /// Writes `record` as one line.
    @Sendable static func record(_ record: HTTPAccessRecord) {
        var fields: [(String, String)] = [
            ("method", record.method), ("route", record.route), ("status", String(record.status)),
            ("duration_ms", milliseconds(record.durationMicroseconds)),
            ("bytes_in", String(record.bytesIn)), ("bytes_out", String(record.bytesOut))
        ]
        if let client = record.client { fields.append(("client", client)) }
        if let app = record.app { fields.append(("app", app)) }
        if let user = record.user { fields.append(("user", user)) }
        logger.info("request", fields)
    }

    /// Microseconds as milliseconds with three decimals (`1.234`).
    static func milliseconds(_ micros: Int) -> String {
        let fraction = String(micros % 1000)
        return "\(micros / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}
