import ParleyWire
import Testing

@testable import ParleyNet

/// The per-route latency histograms: bucket choice, per-loop rows summed, and a server that
/// counts each answered request once under its route's template.
@Suite struct HTTPRouteLatencyTests {
    let templates = [HTTPRouteTemplate(method: "GET", pattern: "/a"), HTTPRouteTemplate(method: "POST", pattern: "/b/{id}")]

    @Test func aDurationFallsInTheFirstBucketWhoseBoundIsNotBelowIt() {
        let buckets = LatencyBuckets(bounds: [100, 1_000, 10_000])
        #expect(buckets.index(ofMicroseconds: 0) == 0)
        #expect(buckets.index(ofMicroseconds: 100) == 0)  // le is inclusive
        #expect(buckets.index(ofMicroseconds: 101) == 1)
        #expect(buckets.index(ofMicroseconds: 10_000) == 2)
        #expect(buckets.index(ofMicroseconds: 10_001) == 3)  // the open bucket
        #expect(buckets.count == 4)
        #expect(LatencyBuckets.cumulative([1, 0, 2, 5]) == [1, 1, 3, 8])
    }

    @Test func rowsOfEveryLoopAddUpAndUnusedRoutesAreLeftOut() {
        let latency = HTTPRouteLatency(templates: templates, loops: 3, buckets: LatencyBuckets(bounds: [100, 1_000]))
        latency.record(loop: 0, route: 1, microseconds: 50)
        latency.record(loop: 2, route: 1, microseconds: 500)
        latency.record(loop: 1, route: 1, microseconds: 5_000)
        latency.record(loop: 1, route: 1, microseconds: 80)
        latency.record(loop: 7, route: 0, microseconds: 1)  // no such loop: ignored, not a crash
        let snapshot = latency.snapshot()
        #expect(snapshot.count == 1)
        #expect(snapshot.first?.template == templates[1])
        #expect(snapshot.first?.counts == [2, 1, 1])
        #expect(snapshot.first?.count == 4)
        #expect(snapshot.first?.sumMicroseconds == 5_630)
    }

    @Test func routesKeepOneTemplateEachEvenWhenAddedAgain() {
        var routes = HTTPRoutes()
        routes.get("/x") { _, r in r.respond(.text("1")) }
        routes.post("/x") { _, r in r.respond(.text("2")) }
        routes.get("/x") { _, r in r.respond(.text("3")) }
        routes.webSocket("/ws") { _, _ in }
        #expect(routes.templates.map { "\($0.method) \($0.pattern)" } == ["GET /x", "POST /x", "GET /ws"])
    }

    @Test func aServerCountsEachAnsweredRequestUnderItsTemplate() throws {
        var configuration = HTTPServerConfiguration()
        configuration.recordsRouteLatency = true
        let (group, server, port) = try startTestServer(configuration: configuration)
        defer { group.shutdownAndWait() }
        let client = try RawClient(port: port)
        for id in ["1", "2", "3"] {
            client.send("GET /users/\(id) HTTP/1.1\r\nHost: t\r\n\r\n")
            _ = client.read(until: "user=\(id)")
        }
        client.send("GET /nowhere HTTP/1.1\r\nHost: t\r\n\r\n")
        _ = client.read(until: "not_found")
        client.send("GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        _ = client.readToEnd()
        let histograms = try #require(server.routeLatency).snapshot()
        // The values of the path never appear, only the pattern; the unmatched path is not a route.
        #expect(
            histograms.map { "\($0.template.method) \($0.template.pattern) \($0.count)" }.sorted()
                == ["GET /healthz 1", "GET /users/{id} 3"])
    }

    @Test func withoutTheSwitchNothingIsKept() throws {
        let (group, server, _) = try startTestServer()
        defer { group.shutdownAndWait() }
        #expect(server.routeLatency == nil)
    }
}
