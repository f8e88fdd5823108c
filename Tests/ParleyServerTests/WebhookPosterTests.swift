import ParleyNet
import Synchronization
import Testing

@testable import ParleyChannels
@testable import ParleyServer

#if canImport(Glibc)
import Glibc
#endif

/// Webhook delivery on the event loops: a slow endpoint costs a connection, not a thread.
@Suite struct WebhookPosterTests {
    /// A hundred apps' endpoints that take requests and never answer. The blocking poster this
    /// replaced parked one thread per outstanding request in `connect`/`send`/`recv` on its
    /// socket; here all hundred are out at once and no thread of the process waits on one of
    /// those sockets (the loop waits in `epoll_wait`). Counting threads by what they wait on,
    /// not in total, keeps tests running alongside out of the count.
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
        let dispatcher = WebhookDispatcher(
            config: config, poster: HTTPClientWebhookPoster(group: group, timeout: .seconds(600)),
            metrics: ChannelsMetrics(), clock: ServerClock.monotonicMilliseconds,
            wallClock: ServerClock.unixMilliseconds)
        for app in apps { dispatcher.enqueue(app: app, event: WebhookEvent(.channelOccupied, channel: "c")) }
        while server.heads < endpoints { try await Task.sleep(for: .milliseconds(5)) }
        let sockets = ThreadProbe.socketDescriptors(connectedToPort: server.port)
        #expect(sockets.count == endpoints)
        let waiting = ThreadProbe.threadsWaiting(onAnyOf: sockets)
        #expect(waiting.isEmpty, "threads parked on webhook sockets: \(waiting)")
    }

    @Test func theDeliveryIsASignedPost() {
        let delivery = WebhookDelivery(
            id: 1, url: WebhookURL("http://hooks.test:8080/in?x=1")!, key: "key", body: Array("{}".utf8),
            signature: "abc", attempt: 1)
        let request = HTTPClientWebhookPoster.request(for: delivery)
        #expect(request.method == "POST")
        #expect(request.url == "http://hooks.test:8080/in?x=1")
        #expect(request.headers.first("X-Pusher-Key") == "key")
        #expect(request.headers.first("X-Pusher-Signature") == "abc")
        #expect(request.headers.first("Content-Type") == "application/json")
        #expect(request.body == Array("{}".utf8))
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

/// What this process's threads wait on, from `/proc` (Linux).
enum ThreadProbe {
    /// This process's descriptors of TCP sockets whose peer is 127.0.0.1:`port`.
    static func socketDescriptors(connectedToPort port: Int) -> Set<Int> {
        let suffix = ":" + String(port, radix: 16, uppercase: true).leftPadded(to: 4)
        var inodes = Set<String>()
        for line in lines("/proc/net/tcp").dropFirst() {
            let fields = line.split(separator: " ")
            if fields.count > 9, fields[2].hasSuffix(suffix) { inodes.insert(String(fields[9])) }
        }
        var descriptors = Set<Int>()
        for name in entries("/proc/self/fd") {
            guard let fd = Int(name), let target = link("/proc/self/fd/" + name),
                target.hasPrefix("socket:["), inodes.contains(String(target.dropFirst(8).dropLast()))
            else { continue }
            descriptors.insert(fd)
        }
        return descriptors
    }

    /// Threads blocked in a socket read, write or connect on one of `descriptors` in each of
    /// `samples` looks 20 ms apart, as "tid name call" lines. A thread parked on a socket stays
    /// there; a loop thread that a busy host preempted inside a short `sendmsg` or `recvmsg` on one
    /// is gone by the next look. Only those calls count because other calls' first argument is
    /// not a descriptor (`wait4` takes a process id, `select` a descriptor count), and a test
    /// running alongside that waits on a child whose id equals one of these numbers is no finding.
    static func threadsWaiting(onAnyOf descriptors: Set<Int>, samples: Int = 5) -> [String] {
        var parked = threadsInSocketCalls(on: descriptors)
        for _ in 1..<max(samples, 1) where !parked.isEmpty {
            usleep(20_000)
            let now = threadsInSocketCalls(on: descriptors)
            parked = parked.filter { now[$0.key] != nil }
        }
        return parked.map { task, call in
            let name = lines("/proc/self/task/\(task)/comm").first.map(String.init) ?? "?"
            return "\(task) \(name) \(call)"
        }.sorted()
    }

    /// x86-64 and arm64 numbers of the calls a blocking HTTP poster parks in on its socket.
    private static let socketCalls: Set<Int> = {
        #if arch(x86_64)
        // read, write, readv, writev, connect, sendto, recvfrom, sendmsg, recvmsg
        return [0, 1, 19, 20, 42, 44, 45, 46, 47]
        #else
        // read, write, readv, writev, connect, sendto, recvfrom, sendmsg, recvmsg
        return [63, 64, 65, 66, 203, 206, 207, 211, 212]
        #endif
    }()

    /// The threads in a socket call on one of `descriptors` right now, with the call's line.
    private static func threadsInSocketCalls(on descriptors: Set<Int>) -> [String: String] {
        var found: [String: String] = [:]
        for task in entries("/proc/self/task") {
            guard let line = lines("/proc/self/task/\(task)/syscall").first else { continue }
            let call = line.split(separator: " ")
            guard call.count > 1, let number = Int(call[0]), socketCalls.contains(number),
                let fd = Int(call[1].dropFirst(2), radix: 16), descriptors.contains(fd)
            else { continue }
            found[task] = String(line.prefix(40))
        }
        return found
    }

    private static func lines(_ path: String) -> [Substring] {
        guard let file = fopen(path, "r") else { return [] }
        defer { fclose(file) }
        var text = ""
        var buffer = [CChar](repeating: 0, count: 4096)
        while fgets(&buffer, Int32(buffer.count), file) != nil { text += String(cString: buffer) }
        return text.split(separator: "\n")
    }

    private static func entries(_ path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    private static func link(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
