@testable import ParleyWire

/// A socket-free driver for ``HTTPServerConnectionStateMachine``: performs its actions on
/// plain values (bytes written, requests delivered, timer armed) with a clock set by the test.
struct HTTPServerConnectionHarness {
    typealias Machine = HTTPServerConnectionStateMachine

    struct Delivered: Equatable {
        var slot: Int
        var target: String
        var body: String
    }

    var machine: Machine
    var now: UInt64 = 0
    /// How heads are routed; by default every request is read and delivered.
    var decide: (HTTPRequestHead) -> Machine.HeadDecision = { _ in .read(maxBodySize: nil) }
    /// When set, delivered requests are answered inside the delivery, as a synchronous handler does.
    var answerDuringDelivery: ((HTTPRequestHead) -> Machine.Response)?
    var written: [UInt8] = []
    var delivered: [Delivered] = []
    var offered: [Delivered] = []
    var answered: [(slot: Int, status: Int, bytesIn: Int, bytesOut: Int)] = []
    var paused = false
    var pauses = 0
    var closed = false
    var aborted = false
    var timer: UInt64?
    var leftover: [UInt8]?

    init(_ configuration: Machine.Configuration = .init()) {
        machine = Machine(configuration: configuration)
    }

    /// Everything written so far, as text.
    var output: String { String(decoding: written, as: UTF8.self) }

    /// Takes what was written so far.
    mutating func takeOutput() -> String {
        defer { written.removeAll() }
        return output
    }

    mutating func receive(_ text: String) { perform(machine.receive(Array(text.utf8), now: now)) }
    mutating func endOfInput() { perform(machine.endOfInput()) }
    mutating func shutdown() { perform(machine.shutdown()) }
    mutating func idleTimedOut() { perform(machine.idleTimedOut()) }

    mutating func respond(_ slot: Int, _ body: String = "ok", status: Int = 200) {
        perform(machine.respond(slot: slot, Self.response(body, status: status), now: now))
    }

    /// Moves the clock, firing the timer when it is due.
    mutating func advance(to instant: UInt64) {
        now = instant
        if let due = timer, due <= now {
            timer = nil
            perform(machine.timerFired(now: now))
        }
    }

    static func response(_ body: String, status: Int = 200) -> Machine.Response {
        Machine.Response(
            head: HTTPResponseHead(status: HTTPStatus(status), headers: ["Content-Type": "text/plain"]),
            body: Array(body.utf8))
    }

    mutating func perform(_ actions: [Machine.Action]) {
        var batch = actions
        while !batch.isEmpty {
            var next: [Machine.Action] = []
            for action in batch {
                switch action {
                case .route(_, let head):
                    next = machine.headRouted(decide(head), now: now)
                case .deliver(let slot, let head, let body):
                    delivered.append(Delivered(slot: slot, target: head.target, body: String(decoding: body, as: UTF8.self)))
                    if let answer = answerDuringDelivery {
                        perform(machine.respond(slot: slot, answer(head), now: now))
                    }
                    next = machine.proceed(now: now)
                case .offerUpgrade(let slot, let head, let body):
                    offered.append(Delivered(slot: slot, target: head.target, body: String(decoding: body, as: UTF8.self)))
                case .write(let bytes):
                    written += bytes.array
                case .answered(let slot, let status, let bytesIn, let bytesOut):
                    answered.append((slot, status.code, bytesIn, bytesOut))
                case .pauseReading:
                    paused = true
                    pauses += 1
                case .resumeReading:
                    paused = false
                case .scheduleDeadline(let at):
                    timer = at
                case .cancelDeadline:
                    timer = nil
                case .close:
                    closed = true
                case .abortIdle:
                    aborted = true
                case .upgrade(let bytes):
                    leftover = bytes
                }
            }
            batch = next
        }
    }
}
