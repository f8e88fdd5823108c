@testable import ParleyChannels
import ParleyNet
import Synchronization
import Testing
@testable import ParleyServer
#if canImport(Glibc)
import Glibc
#endif

/// Webhook delivery on the event loops: a slow endpoint costs a connection, not a thread.
@Suite struct WebhookPosterTests {
    /// A hundred apps' endpoints that take requests and never answer. The blocking poster this
    /// replaced held one thread per outstanding request (or left requests waiting for one);
    /// here all hundred are out at once and the process has about as many threads as before.
    @Test(.timeLimit(.minutes(1))) func manySlowEndpointsDoNotHoldThreads() async throws {
        let endpoints = 100
        let server = try SilentServer()
        defer { server.stop() }
        let group = try EventLoopGroup(threads: 1, logger: .silent)
        defer { group.shutdownAndWait() }
        let apps = (0..<endpoints).map { index in
            var app = AppConfig(id: "a\(index)", key: "k\(index)", secret: "s")
            app.webhooks = [WebhookConfig(url: WebhookURL("http://127.0.0.1:\(server.port)/hook/\(index)")!)]
            return app
        }
        var config = ChannelsConfig(apps: apps)
        config.webhookBatchMilliseconds = 0
        let threadsBefore = Self.threadCount()
        let dispatcher = WebhookDispatcher(config: config, poster: HTTPClientWebhookPoster(group: group, timeout: .seconds(600)),
                                           metrics: ChannelsMetrics(), clock: ServerClock.monotonicMilliseconds,
                                           wallClock: ServerClock.unixMilliseconds)
        for app in apps { dispatcher.enqueue(app: app, event: WebhookEvent(.channelOccupied, channel: "c")) }
        while server.heads < endpoints { try await Task.sleep(for: .milliseconds(5)) }
        let threadsDuring = Self.threadCount()
        #expect(threadsDuring - threadsBefore < endpoints / 2, "\(threadsBefore) threads before, \(threadsDuring) with \(endpoints) requests out")
    }

    @Test func theDeliveryIsASignedPost() {
        let delivery = WebhookDelivery(id: 1, url: WebhookURL("http://hooks.test:8080/in?x=1")!, key: "key", body: Array("{}".utf8),
                                       signature: "abc", attempt: 1)
        let request = HTTPClientWebhookPoster.request(for: delivery)
        #expect(request.method == "POST")
        #expect(request.url == "http://hooks.test:8080/in?x=1")
        #expect(request.headers.first("X-Pusher-Key") == "key")
        #expect(request.headers.first("X-Pusher-Signature") == "abc")
        #expect(request.headers.first("Content-Type") == "application/json")
        #expect(request.body == Array("{}".utf8))
    }

    /// The threads of this process now.
    static func threadCount() -> Int {
        guard let file = fopen("/proc/self/status", "r") else { return 0 }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(cString: line)
            if text.hasPrefix("Threads:") { return Int(text.dropFirst(8).trimmingCharacters(in: " \t\n")) ?? 0 }
        }
        return 0
    }
}

/// A loopback server that reads requests and never answers them, counting request heads.
final class SilentServer: Sendable {
    let group: EventLoopGroup
    let server: TCPServer
    private let count = HeadCount()

    final class HeadCount: Sendable {
        let value = Mutex(0)
    }

    init() throws {
        group = try EventLoopGroup(threads: 1, logger: .silent)
        let count = self.count
        server = try TCPServer.start(group: group, host: "127.0.0.1", port: 0) { connection in
            connection.handler = Handler(count: count)
        }
    }

    var port: Int { server.localAddress.port }
    var heads: Int { count.value.withLock { $0 } }

    func stop() {
        server.stop()
        group.shutdownAndWait()
    }

    private final class Handler: ConnectionHandler {
        let count: HeadCount
        private var recent: [UInt8] = []

        init(count: HeadCount) { self.count = count }

        func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
            for byte in bytes {
                recent.append(byte)
                if recent.count > 4 { recent.removeFirst() }
                if recent == [13, 10, 13, 10] { count.value.withLock { $0 += 1 } }
            }
        }
    }
}

private extension Substring {
    func trimmingCharacters(in set: String) -> Substring {
        var text = self
        while let first = text.first, set.contains(first) { text.removeFirst() }
        while let last = text.last, set.contains(last) { text.removeLast() }
        return text
    }
}
