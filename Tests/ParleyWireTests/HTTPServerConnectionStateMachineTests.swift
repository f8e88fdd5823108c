import Testing

@testable import ParleyWire

/// HTTP/1.1 connection handling as values: bytes in, actions out, the clock set by the test.
@Suite struct HTTPServerConnectionStateMachineTests {
    typealias Machine = HTTPServerConnectionStateMachine
    static let second: UInt64 = 1_000_000_000

    static func get(_ path: String, _ extra: String = "", version: String = "HTTP/1.1") -> String {
        "GET \(path) \(version)\r\nHost: x\r\n\(extra)\r\n"
    }

    static func post(_ path: String, body: String, _ extra: String = "") -> String {
        "POST \(path) HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\(extra)\r\n\(body)"
    }

    /// The bodies of the responses in `text`, in the order they were written.
    static func bodies(_ text: String) -> [String] {
        text.split(separator: "HTTP/1.").map { String($0.split(separator: "\r\n\r\n").last ?? "") }
    }

    // MARK: Pipelining

    @Test func pipelinedAnswersAreWrittenInRequestOrder() {
        var h = HTTPServerConnectionHarness()
        h.receive(Self.get("/a") + Self.get("/b") + Self.get("/c"))
        #expect(h.delivered.map(\.target) == ["/a", "/b", "/c"])
        #expect(h.delivered.map(\.slot) == [0, 1, 2])
        // The handlers finish last to first: nothing may be written before /a's answer.
        h.respond(2, "C")
        h.respond(1, "B")
        #expect(h.written.isEmpty)
        h.respond(0, "A")
        #expect(Self.bodies(h.output) == ["A", "B", "C"])
        #expect(!h.closed)
    }

    @Test func readingPausesAtThePipelineDepthAndResumes() {
        var h = HTTPServerConnectionHarness(.init(maxPipelinedRequests: 2))
        h.receive(Self.get("/a") + Self.get("/b") + Self.get("/c"))
        #expect(h.delivered.map(\.target) == ["/a", "/b"])
        #expect(h.paused)
        h.respond(1, "B")
        #expect(h.paused)  // /a still owes its answer: two slots are taken
        h.respond(0, "A")
        #expect(!h.paused)
        #expect(h.delivered.map(\.target) == ["/a", "/b", "/c"])
        h.respond(2, "C")
        #expect(Self.bodies(h.output) == ["A", "B", "C"])
    }

    @Test func handlersAnsweringAtOnceNeverFillThePipeline() {
        var h = HTTPServerConnectionHarness(.init(maxPipelinedRequests: 2))
        h.answerDuringDelivery = { head in HTTPServerConnectionHarness.response(head.target) }
        h.receive((1...6).map { Self.get("/\($0)") }.joined())
        #expect(h.pauses == 0)
        #expect(Self.bodies(h.output) == (1...6).map { "/\($0)" })
    }

    @Test func answersCountTheirBodiesForTheAccessLog() {
        var h = HTTPServerConnectionHarness()
        h.receive(Self.post("/p", body: "hello"))
        h.respond(0, "four")
        #expect(h.answered.count == 1)
        #expect(h.answered.first.map { [$0.slot, $0.status, $0.bytesIn, $0.bytesOut] } == [0, 200, 5, 4])
    }

    // MARK: 100-continue

    @Test func continueIsSentOnlyWhenTheBodyIsWanted() {
        var h = HTTPServerConnectionHarness()
        h.receive("POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
        #expect(h.takeOutput() == "HTTP/1.1 100 Continue\r\n\r\n")
        #expect(h.delivered.isEmpty)
        h.receive("hello")
        #expect(h.delivered == [.init(slot: 0, target: "/p", body: "hello")])
        h.respond(0)
        #expect(!h.output.contains("100 Continue"))
        #expect(!h.closed)
    }

    @Test func aRefusalWithoutContinueClosesTheConnection() {
        var h = HTTPServerConnectionHarness()
        h.decide = { _ in .answer(.error(.notFound, code: "not_found", message: "no")) }
        h.receive("POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
        #expect(!h.output.contains("100 Continue"))
        #expect(h.output.hasPrefix("HTTP/1.1 404 "))
        #expect(h.output.contains("Connection: close"))
        #expect(h.closed)
        // Whatever the client sends next is not read as a request.
        h.receive(Self.get("/b"))
        #expect(h.delivered.isEmpty)
    }

    @Test func aBodyOverTheRouteLimitIsRefusedBeforeContinue() {
        var h = HTTPServerConnectionHarness()
        h.decide = { _ in .read(maxBodySize: 4) }
        h.receive("POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
        #expect(h.output.hasPrefix("HTTP/1.1 413 "))
        #expect(h.closed)
    }

    @Test func anUnknownExpectationGets417() {
        var h = HTTPServerConnectionHarness()
        h.receive(Self.get("/a", "Expect: teapot\r\n"))
        #expect(h.output.hasPrefix("HTTP/1.1 417 "))
        #expect(h.closed)
        #expect(h.delivered.isEmpty)
    }

    @Test func anAnswerWithoutExpectationReadsPastTheBody() {
        var h = HTTPServerConnectionHarness()
        h.decide = { head in
            head.target == "/missing"
                ? .answer(.error(.notFound, code: "not_found", message: "no"))
                : .read(maxBodySize: nil)
        }
        h.receive(Self.post("/missing", body: "abc") + Self.get("/b"))
        #expect(h.output.hasPrefix("HTTP/1.1 404 "))
        #expect(h.delivered.map(\.target) == ["/b"])
        #expect(h.answered.first?.bytesIn == 3)
        #expect(!h.closed)
    }

    // MARK: Upgrade

    @Test func anUpgradeWaitsUntilItIsTheOldestAndHandsOverLeftoverBytes() {
        var h = HTTPServerConnectionHarness()
        h.decide = { head in head.target == "/ws" ? .upgrade : .read(maxBodySize: nil) }
        h.receive(Self.get("/a") + Self.get("/ws", "Connection: Upgrade\r\nUpgrade: websocket\r\n") + "FRAME")
        #expect(h.delivered.map(\.target) == ["/a"])
        #expect(h.offered.isEmpty)
        h.respond(0, "A")
        #expect(h.offered == [.init(slot: 1, target: "/ws", body: "")])
        h.perform(
            h.machine.upgradeAccepted(
                slot: 1, response: Array("HTTP/1.1 101 Switching Protocols\r\n\r\n".utf8),
                now: h.now))
        #expect(h.output.hasSuffix("HTTP/1.1 101 Switching Protocols\r\n\r\n"))
        #expect(h.leftover == Array("FRAME".utf8))
        #expect(h.answered.last.map { [$0.slot, $0.status] } == [1, 101])
        // The socket is no longer HTTP's.
        h.receive(Self.get("/after"))
        #expect(h.delivered.count == 1)
    }

    @Test func aRefusedUpgradeIsAnsweredAndCloses() {
        var h = HTTPServerConnectionHarness()
        h.decide = { _ in .upgrade }
        h.receive(Self.get("/ws", "Connection: Upgrade\r\nUpgrade: websocket\r\n"))
        #expect(h.offered.map(\.slot) == [0])
        h.perform(h.machine.upgradeRefused(slot: 0, .error(HTTPStatus(403), code: "forbidden", message: "no"), now: h.now))
        #expect(h.output.hasPrefix("HTTP/1.1 403 "))
        #expect(h.output.contains("Connection: close"))
        #expect(h.closed)
    }

    // MARK: Deadlines

    static let clocks = HTTPRequestDeadline.Policy(
        headTimeout: .seconds(10), bodyTimeout: .seconds(60),
        minimumBodyRate: 0, bodyGracePeriod: .seconds(5))

    @Test func aSlowHeadGets408MeasuredFromItsFirstByte() {
        var h = HTTPServerConnectionHarness(.init(deadlinePolicy: Self.clocks))
        h.advance(to: 100 * Self.second)
        h.receive("GET / HTTP/1.1\r\n")
        #expect(h.timer == 110 * Self.second)
        // Trickling the rest of the head buys no time.
        for tick in 1...9 {
            h.advance(to: UInt64(100 + tick) * Self.second)
            h.receive("X-\(tick): y\r\n")
        }
        #expect(h.timer == 110 * Self.second)
        #expect(h.written.isEmpty)
        h.advance(to: 110 * Self.second)
        #expect(h.output.hasPrefix("HTTP/1.1 408 "))
        #expect(h.output.contains("the request head took too long to arrive"))
        #expect(h.closed)
    }

    @Test func anIdleKeepAliveConnectionHasNoHeadClock() {
        var h = HTTPServerConnectionHarness(.init(deadlinePolicy: Self.clocks))
        h.receive(Self.get("/a"))
        h.respond(0)
        #expect(h.timer == nil)
        h.advance(to: 1000 * Self.second)
        #expect(!h.closed)
    }

    @Test func aHeadArrivingWholeLeavesNoTimerBehind() {
        var h = HTTPServerConnectionHarness(.init(deadlinePolicy: Self.clocks))
        h.receive("GET /a HTTP/1.1\r\n")
        #expect(h.timer != nil)
        h.receive("Host: x\r\n\r\n")
        #expect(h.timer == nil)
        #expect(h.delivered.count == 1)
    }

    @Test func aSlowBodyGets408AfterTheBodyTimeout() {
        var h = HTTPServerConnectionHarness(.init(deadlinePolicy: Self.clocks))
        h.receive("POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc")
        #expect(h.timer == 60 * Self.second)
        h.advance(to: 59 * Self.second)
        #expect(h.written.isEmpty)
        h.advance(to: 60 * Self.second)
        #expect(h.output.hasPrefix("HTTP/1.1 408 "))
        #expect(h.output.contains("the request body took too long to arrive"))
        #expect(h.closed)
        #expect(h.delivered.isEmpty)
    }

    @Test func aBodyBelowTheMinimumRateGets408() {
        let policy = HTTPRequestDeadline.Policy(
            headTimeout: .seconds(10), bodyTimeout: nil, minimumBodyRate: 100,
            bodyGracePeriod: .seconds(5))
        var h = HTTPServerConnectionHarness(.init(deadlinePolicy: policy))
        h.receive("POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n")
        while !h.closed, let due = h.timer { h.advance(to: due) }
        #expect(h.output.contains("the request body arrived too slowly"))
    }

    // MARK: End of input

    @Test func endOfInputMidBodyClosesAtOnce() {
        var h = HTTPServerConnectionHarness()
        h.receive(Self.get("/a") + "POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc")
        h.endOfInput()
        #expect(h.closed)
        #expect(h.delivered.map(\.target) == ["/a"])
    }

    @Test func endOfInputBetweenRequestsFinishesTheAnswersOwedThenCloses() {
        var h = HTTPServerConnectionHarness()
        h.receive(Self.get("/a") + Self.get("/b"))
        h.endOfInput()
        #expect(!h.closed)
        h.respond(1, "B")
        #expect(!h.closed)
        h.respond(0, "A")
        #expect(Self.bodies(h.output) == ["A", "B"])
        #expect(h.closed)
        // The last answer says the connection ends.
        #expect(h.output.ranges(of: "Connection: close").count == 1)
        #expect(h.output.firstRange(of: "Connection: close")!.lowerBound > h.output.firstRange(of: "\r\n\r\nA")!.lowerBound)
    }

    @Test func endOfInputWhenIdleCloses() {
        var h = HTTPServerConnectionHarness()
        h.endOfInput()
        #expect(h.closed)
    }

    @Test func theIdleTimerSparesAConnectionWaitingOnItsHandler() {
        var h = HTTPServerConnectionHarness()
        h.receive(Self.get("/a"))
        h.idleTimedOut()
        #expect(!h.aborted)
        h.respond(0)
        h.idleTimedOut()
        #expect(h.aborted)
    }

    // MARK: Shutdown

    @Test func shutdownClosesAnIdleConnectionAtOnce() {
        var h = HTTPServerConnectionHarness()
        h.shutdown()
        #expect(h.closed)
    }

    @Test func shutdownLetsTheAnswersOwedFinishWithConnectionClose() {
        var h = HTTPServerConnectionHarness()
        h.receive(Self.get("/a"))
        h.shutdown()
        #expect(!h.closed)
        h.receive(Self.get("/b"))
        #expect(h.delivered.map(\.target) == ["/a"])
        h.respond(0)
        #expect(h.output.contains("Connection: close"))
        #expect(h.closed)
    }

    @Test func shutdownLetsABodyInProgressFinish() {
        var h = HTTPServerConnectionHarness()
        h.receive("POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 6\r\n\r\nabc")
        h.shutdown()
        h.receive("def" + Self.get("/next"))
        #expect(h.delivered == [.init(slot: 0, target: "/p", body: "abcdef")])
        h.respond(0)
        #expect(h.output.contains("Connection: close"))
        #expect(h.closed)
    }

    // MARK: Keep-alive

    @Test func http11StaysOpenByDefault() {
        var h = HTTPServerConnectionHarness()
        h.receive(Self.get("/a"))
        h.respond(0)
        #expect(!h.output.contains("Connection:"))
        #expect(!h.closed)
    }

    @Test func connectionCloseEndsTheConnectionAndReadsNoFurther() {
        var h = HTTPServerConnectionHarness()
        h.receive(Self.get("/a", "Connection: close\r\n") + Self.get("/b"))
        #expect(h.delivered.map(\.target) == ["/a"])
        h.respond(0)
        #expect(h.output.contains("Connection: close"))
        #expect(h.closed)
    }

    @Test func http10ClosesUnlessItAsksForKeepAlive() {
        var plain = HTTPServerConnectionHarness()
        plain.receive(Self.get("/a", version: "HTTP/1.0"))
        plain.respond(0)
        #expect(plain.output.contains("Connection: close"))
        #expect(plain.closed)

        var kept = HTTPServerConnectionHarness()
        kept.receive(Self.get("/a", "Connection: keep-alive\r\n", version: "HTTP/1.0"))
        kept.respond(0)
        #expect(kept.output.contains("Connection: keep-alive"))
        #expect(!kept.closed)
    }

    @Test func http10GetsAStreamedBodyWithContentLength() {
        var h = HTTPServerConnectionHarness()
        h.receive(Self.get("/a", "Connection: keep-alive\r\n", version: "HTTP/1.0"))
        h.perform(h.machine.startStream(slot: 0, head: HTTPResponseHead(status: .ok)))
        h.perform(h.machine.streamChunk(slot: 0, Array("ab".utf8)))
        #expect(h.written.isEmpty)
        h.perform(h.machine.finishStream(slot: 0, trailers: HTTPHeaders(), now: h.now))
        #expect(h.output.contains("Content-Length: 2\r\n"))
        #expect(h.output.hasSuffix("\r\n\r\nab"))
    }

    @Test func http11GetsAChunkedStream() {
        var h = HTTPServerConnectionHarness()
        h.receive(Self.get("/a"))
        h.perform(h.machine.startStream(slot: 0, head: HTTPResponseHead(status: .ok)))
        h.perform(h.machine.streamChunk(slot: 0, Array("ab".utf8)))
        h.perform(h.machine.finishStream(slot: 0, trailers: HTTPHeaders(), now: h.now))
        #expect(h.output.contains("Transfer-Encoding: chunked\r\n"))
        #expect(h.output.hasSuffix("\r\n\r\n2\r\nab\r\n0\r\n\r\n"))
        #expect(h.answered.first.map { [$0.status, $0.bytesOut] } == [200, 2])
    }

    @Test func malformedInputGets400AndCloses() {
        var h = HTTPServerConnectionHarness()
        h.receive(Self.get("/a") + "BROKEN\r\n\r\n")
        #expect(h.delivered.map(\.target) == ["/a"])
        h.respond(0, "A")
        #expect(Self.bodies(h.output).first == "A")
        #expect(h.output.contains("HTTP/1.1 400 "))
        #expect(h.closed)
    }

    @Test func theServerNameIsAddedToAnswersWithoutOne() {
        var h = HTTPServerConnectionHarness(.init(serverName: "parley"))
        h.receive(Self.get("/a"))
        h.respond(0)
        #expect(h.output.contains("Server: parley\r\n"))
    }
}
