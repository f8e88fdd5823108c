import Glibc

/// Drives every sender connection from one thread with epoll: each connection has at most one
/// request in flight (HTTP/1.1 keep-alive, no pipelining) and is free again once its answer
/// has been read in full.
final class SendDriver {
    private let options: LoadOptions
    private let epoll: Epoll
    private var connections: [SenderConnection] = []
    /// Free connections, oldest first (a ring over `connections.count` slots).
    private var idle: [Int]
    private var idleHead = 0
    private var idleCount = 0
    private let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 8)
    private let meter: CPUMeter

    // The phase being run.
    private var outcome = SendPhase.Outcome(pacing: .closed, seconds: 0)
    private var latencies: [UInt64] = []
    private var lateness: [UInt64] = []
    private var phaseEnd: UInt64 = 0
    private var resendOnAck = false
    private var inFlight = 0

    init(options: LoadOptions, tokens: [String]) throws(BenchError) {
        self.options = options
        epoll = try Epoll()
        meter = CPUMeter(serverPIDs: options.serverPIDs)
        idle = Array(repeating: 0, count: options.senders)
        let prefix = Self.runPrefix()
        let vocabulary = options.textWords > 0 ? SearchVocabulary() : nil
        var random = BenchRandom(seed: 4)
        for index in 0..<options.senders {
            let text = vocabulary?.sentence(options.textWords, &random) ?? BenchNames.text(options.textBytes)
            let socket = try BenchSocket(host: options.host, port: options.sendPort(ofSender: index))
            try socket.makeNonBlocking()
            let room = BenchNames.room(BenchNames.room(ofSender: index, rooms: options.rooms))
            let connection = SenderConnection(
                index: index, socket: socket, room: room, token: tokens[index],
                clientPrefix: "\(prefix)-\(index)", text: text)
            try epoll.add(socket.descriptor, token: UInt64(index))
            connections.append(connection)
            pushIdle(index)
        }
    }

    deinit { scratch.deallocate() }

    /// Runs one phase of `seconds`; with `record` false it is a warm-up and returns nothing kept.
    func run(_ pacing: SendPhase.Pacing, seconds: Int, record: Bool) throws(BenchError) -> SendPhase.Outcome {
        outcome = SendPhase.Outcome(pacing: pacing, seconds: Double(seconds))
        latencies.removeAll(keepingCapacity: true)
        lateness.removeAll(keepingCapacity: true)
        let before = meter.read()
        let start = BenchClock.now()
        phaseEnd = start + UInt64(seconds) * 1_000_000_000
        switch pacing {
        case .closed:
            latencies.reserveCapacity(min(5_000_000, 40_000 * seconds))
            try runClosed(record: record)
        case .rate(let rate):
            latencies.reserveCapacity(min(10_000_000, rate * seconds + 16))
            try runOpen(rate: rate, start: start, record: record)
        }
        let after = meter.read()
        try drain()
        outcome.latency = LatencySummary(nanoseconds: latencies)
        if case .rate = pacing { outcome.lateness = LatencySummary(nanoseconds: lateness) }
        outcome.cpu = meter.usage(from: before, to: after)
        outcome.windowStart = start
        outcome.windowEnd = phaseEnd
        return outcome
    }

    /// Every free sender sends; each acknowledgement inside the window triggers the next send.
    private func runClosed(record: Bool) throws(BenchError) {
        resendOnAck = true
        while let index = popIdle() {
            try send(connections[index], dueAt: BenchClock.now(), record: record)
        }
        while true {
            let now = BenchClock.now()
            if now >= phaseEnd { break }
            try poll(timeoutMilliseconds: Int32(min(100, (phaseEnd - now) / 1_000_000 + 1)), record: record)
        }
        resendOnAck = false
    }

    /// Message k is due at start + k/rate; it goes out on the longest-idle sender as soon as
    /// one is free. Between due times the driver waits in epoll with a nanosecond timeout
    /// (epoll_pwait2), so answers are read as they come and nothing sleeps past a due time
    /// (a millisecond epoll wait plus a nanosleep cost one more wake-up per message).
    /// Send lateness is reported; it counts in latency.
    private func runOpen(rate: Int, start: UInt64, record: Bool) throws(BenchError) {
        var due = 0
        let interval = 1e9 / Double(rate)
        func dueTime(_ k: Int) -> UInt64 { start + UInt64((Double(k) * interval).rounded()) }
        while true {
            let now = BenchClock.now()
            // Messages due before the window closed go out even when the wake-up came after it
            // (late, and their lateness counts); only then does the window end.
            while dueTime(due) <= now, dueTime(due) < phaseEnd, let index = popIdle() {
                let scheduled = dueTime(due)
                try send(connections[index], dueAt: scheduled, record: record)
                if record { lateness.append(BenchClock.now() - scheduled) }
                due += 1
            }
            if now >= phaseEnd { break }
            let next = dueTime(due)
            guard next < phaseEnd && idleCount > 0 else {
                // Nothing can go out before an answer frees a sender (or the window closes).
                try poll(timeoutMilliseconds: Int32(min(100, (phaseEnd - now) / 1_000_000 + 1)), record: record)
                continue
            }
            let wait = next > now ? next - now : 0
            try poll(timeoutNanoseconds: min(100_000_000, wait), record: record)
        }
        outcome.offered = Int((Double(phaseEnd - start) / interval).rounded(.up))
        outcome.unsent = max(0, outcome.offered - due)
    }

    /// Waits for the answers still outstanding (up to 30 s); open-loop answers still count.
    private func drain() throws(BenchError) {
        let deadline = BenchClock.now() + 30_000_000_000
        while inFlight > 0 && BenchClock.now() < deadline {
            try poll(timeoutMilliseconds: 100, record: true)
        }
        if inFlight > 0 {
            throw BenchError("stalled", "\(inFlight) sends still unanswered 30 s after the phase ended")
        }
    }

    private func send(_ connection: SenderConnection, dueAt: UInt64, record: Bool) throws(BenchError) {
        connection.advanceClientID()
        connection.inFlight = true
        connection.recorded = record
        connection.sentAt = dueAt
        connection.written = 0
        inFlight += 1
        if record { outcome.sent += 1 }
        try flush(connection)
    }

    /// Writes what is left of the request; asks for writability if the socket is full.
    private func flush(_ connection: SenderConnection) throws(BenchError) {
        let before = connection.written
        do {
            connection.written += try connection.socket.write(connection.request, from: connection.written)
        } catch {
            try lost(connection, error.message)
            return
        }
        let done = connection.written == connection.request.count
        if !done || before > 0 {
            try epoll.modify(connection.socket.descriptor, token: UInt64(connection.index), writable: !done)
        }
    }

    private func poll(timeoutMilliseconds: Int32, record: Bool) throws(BenchError) {
        try epoll.wait(timeoutMilliseconds: timeoutMilliseconds) { token, readable, writable, failed throws(BenchError) in
            try handle(token: token, readable: readable, writable: writable, failed: failed)
        }
    }

    private func poll(timeoutNanoseconds: UInt64, record: Bool) throws(BenchError) {
        try epoll.wait(timeoutNanoseconds: timeoutNanoseconds) { token, readable, writable, failed throws(BenchError) in
            try handle(token: token, readable: readable, writable: writable, failed: failed)
        }
    }

    private func handle(token: UInt64, readable: Bool, writable: Bool, failed: Bool) throws(BenchError) {
        let connection = connections[Int(token)]
        if writable && connection.inFlight && connection.written < connection.request.count { try flush(connection) }
        if readable || failed { try receive(connection) }
    }

    private func receive(_ connection: SenderConnection) throws(BenchError) {
        let count: Int
        do {
            count = try connection.socket.read(into: scratch, feeding: &connection.scanner)
        } catch {
            try lost(connection, error.message)
            return
        }
        if count == 0 { try lost(connection, "the server closed the connection"); return }
        let now = BenchClock.now()
        while let response = try connection.scanner.next(keepBody: false) {
            guard connection.inFlight else { throw BenchError("protocol", "an answer nobody asked for on sender \(connection.index)") }
            account(connection, status: response.status, now: now)
            if response.closes { try lost(connection, nil); return }
            try free(connection)
        }
    }

    private func account(_ connection: SenderConnection, status: Int, now: UInt64) {
        connection.inFlight = false
        inFlight -= 1
        guard connection.recorded else { return }
        switch status {
        case 201:
            outcome.acknowledged += 1
            if now <= phaseEnd { outcome.acknowledgedInWindow += 1 }
            latencies.append(now &- connection.sentAt)
        case 200: outcome.duplicates += 1
        case 429: outcome.rateLimited += 1
        default:
            outcome.failed += 1
            if outcome.firstFailure == nil { outcome.firstFailure = "HTTP \(status) on sender \(connection.index)" }
        }
    }

    /// A free sender sends again at once (closed loop, inside the window) or waits its turn.
    private func free(_ connection: SenderConnection) throws(BenchError) {
        if resendOnAck && BenchClock.now() < phaseEnd {
            try send(connection, dueAt: BenchClock.now(), record: connection.recorded)
        } else {
            pushIdle(connection.index)
        }
    }

    /// The connection broke: its request (if any) failed; a fresh connection takes its place.
    private func lost(_ connection: SenderConnection, _ reason: String?) throws(BenchError) {
        if connection.inFlight {
            connection.inFlight = false
            inFlight -= 1
            if connection.recorded {
                outcome.failed += 1
                if outcome.firstFailure == nil { outcome.firstFailure = "sender \(connection.index): \(reason ?? "closed")" }
            }
        }
        epoll.remove(connection.socket.descriptor)
        connection.socket.close()
        let socket = try BenchSocket(host: options.host, port: options.sendPort(ofSender: connection.index))
        try socket.makeNonBlocking()
        connection.socket = socket
        connection.scanner = ResponseScanner()
        try epoll.add(socket.descriptor, token: UInt64(connection.index))
        try free(connection)
    }

    private func pushIdle(_ index: Int) {
        idle[(idleHead + idleCount) % idle.count] = index
        idleCount += 1
    }

    private func popIdle() -> Int? {
        guard idleCount > 0 else { return nil }
        let index = idle[idleHead]
        idleHead = (idleHead + 1) % idle.count
        idleCount -= 1
        return index
    }

    /// A prefix that keeps this run's client ids apart from any earlier run's.
    private static func runPrefix() -> String {
        "b" + String(getpid(), radix: 36) + String(BenchClock.now() / 1_000_000 % 1_000_000_000, radix: 36)
    }
}
