/// One timed stretch of sending and what it measured.
struct SendPhase {
    /// How sends are paced.
    enum Pacing {
        /// Every sender sends again as soon as its acknowledgement arrives.
        case closed
        /// Messages are due at a fixed rate (per second), each taken by an idle sender; latency
        /// counts from the time a message was due, so a late send cannot hide queueing.
        case rate(Int)
    }

    /// Counts and latencies of a phase.
    struct Outcome {
        var pacing: Pacing
        var seconds: Double
        /// Messages due in the window (open loop) or sent in it (closed loop).
        var offered = 0
        var sent = 0
        /// 201 answers (new message stored durably).
        var acknowledged = 0
        /// Of those, the ones that arrived before the window closed.
        var acknowledgedInWindow = 0
        /// 200 answers: the server found the client id already stored (must not happen here).
        var duplicates = 0
        var rateLimited = 0
        var failed = 0
        var firstFailure: String?
        /// Open loop: messages still unsent at the end for lack of an idle sender.
        var unsent = 0
        /// Open loop: how late sends went out after they were due.
        var lateness: LatencySummary?
        var latency = LatencySummary(nanoseconds: [])
        var cpu: CPUMeter.Usage?
        /// The window on CLOCK_MONOTONIC (ns), to find it in the server's store trace.
        var windowStart: UInt64 = 0
        var windowEnd: UInt64 = 0

        /// Acknowledged sends per second of the window: closed loop, the answers that arrived in
        /// it; open loop, every answer to a message due in it (the rate the server kept up with).
        var acknowledgedPerSecond: Double {
            guard seconds > 0 else { return 0 }
            if case .closed = pacing { return Double(acknowledgedInWindow) / seconds }
            return Double(acknowledged) / seconds
        }

        /// Open loop: all due messages were sent and at least 99.9% acknowledged.
        var sustained: Bool {
            guard case .rate = pacing else { return failed == 0 }
            return unsent == 0 && Double(acknowledged) >= 0.999 * Double(offered)
        }

        /// The RESULT-line prefix of this phase: `closed`, or `r10000` for a rate.
        var key: String {
            switch pacing {
            case .closed: return "closed"
            case .rate(let rate): return "r\(rate)"
            }
        }

        func fields() -> [(String, String)] {
            var fields = [
                ("\(key)_sends_per_s", LatencySummary.fixed(acknowledgedPerSecond, decimals: 0)),
                ("\(key)_acked", String(acknowledged)), ("\(key)_failed", String(failed + duplicates)),
                ("\(key)_rate_limited", String(rateLimited)), ("\(key)_sustained", sustained ? "1" : "0")
            ]
            fields += latency.fields("\(key)_ack")
            if case .rate = pacing {
                fields.append(("\(key)_offered", String(offered)))
                fields.append(("\(key)_unsent", String(unsent)))
                if let lateness { fields.append(("\(key)_late_p99_ms", LatencySummary.ms(lateness.p99))) }
            }
            if let cpu { fields += cpu.fields(key) }
            fields += [("\(key)_from_ns", String(windowStart)), ("\(key)_to_ns", String(windowEnd))]
            return fields
        }

        var text: String {
            let name: String
            switch pacing {
            case .closed: name = "closed loop"
            case .rate(let rate): name = "open loop at \(rate)/s"
            }
            var lines = [
                "\(name), \(LatencySummary.fixed(seconds, decimals: 1)) s: \(LatencySummary.fixed(acknowledgedPerSecond, decimals: 0)) acknowledged sends/s (\(acknowledged) acked, \(sent) sent, \(failed) failed, \(duplicates) duplicate, \(rateLimited) rate-limited)",
                "  ack latency: \(latency.text)"
            ]
            if case .rate = pacing {
                lines.append(
                    "  offered \(offered), unsent \(unsent), sustained \(sustained ? "yes" : "NO")"
                        + (lateness.map {
                            "; send lateness p50 \(LatencySummary.ms($0.p50)) p99 \(LatencySummary.ms($0.p99)) max \(LatencySummary.ms($0.max)) ms"
                        } ?? ""))
            }
            if let cpu { lines.append("  cpu: \(cpu.text)") }
            if let firstFailure { lines.append("  first failure: \(firstFailure)") }
            return lines.joined(separator: "\n")
        }
    }
}
