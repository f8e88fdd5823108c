import Foundation
import ParleyWire
import Synchronization
import Testing

@testable import ParleyNet

/// The Redis client against a real redis-server (and two hostile fake ones).
@Suite(.enabled(if: RedisTestServer.enabled, "redis-server is not installed"), .serialized, .timeLimit(.minutes(1)))
struct RedisClientTests {
    private func withClient(
        _ url: String, configure: (inout RedisConnectionConfiguration) -> Void = { _ in },
        _ body: (RedisClient) async throws -> Void
    ) async throws {
        let group = try EventLoopGroup(threads: 1, logger: .silent)
        defer { group.shutdownAndWait() }
        var configuration = RedisConnectionConfiguration(url: try RedisURL(parsing: url))
        configuration.reconnectInitialDelay = 20
        configuration.reconnectMaxDelay = 200
        configure(&configuration)
        let client = RedisClient(configuration: configuration, on: group.next())
        defer { client.close() }
        try await body(client)
    }

    private func text(_ value: RESPValue) -> String? { value.bytes.map { String(decoding: $0, as: UTF8.self) } }

    @Test func setGetAndIncrRoundTrip() async throws {
        let server = try RedisTestServer()
        try await withClient(server.url()) { (client: RedisClient) async throws in
            #expect(try await client.send(RESPCommand("SET", "greeting", "hello")) == .simpleString("OK"))
            #expect(try await client.send(RESPCommand("GET", "greeting")) == .bulkString(Array("hello".utf8)))
            #expect(try await client.send(RESPCommand("GET", "missing")) == .null)
            #expect(try await client.send(RESPCommand("INCR", "counter")) == .integer(1))
            #expect(try await client.send(RESPCommand("INCRBY", "counter", "41")) == .integer(42))
            await #expect(throws: RedisError(.serverError, "ERR value is not an integer or out of range")) {
                try await client.send(RESPCommand("INCR", "greeting"))
            }
            #expect(try await client.send(RESPCommand("GET", "greeting")) == .bulkString(Array("hello".utf8)))
        }
    }

    @Test func binaryPayloadsSurviveBothWays() async throws {
        let server = try RedisTestServer()
        try await withClient(server.url()) { (client: RedisClient) async throws in
            let key: [UInt8] = [0, 13, 10, 36, 255]
            let payload = (0..<3).flatMap { _ in (0...255).map(UInt8.init) } + Array("\r\n$-1\r\n*1\r\n".utf8)
            _ = try await client.send(RESPCommand([Array("SET".utf8), key, payload]))
            #expect(try await client.send(RESPCommand([Array("GET".utf8), key])) == .bulkString(payload))
            #expect(try await client.send(RESPCommand([Array("STRLEN".utf8), key])) == .integer(Int64(payload.count)))
        }
    }

    @Test func manyConcurrentCommandsArePipelinedAndEachGetsItsOwnReply() async throws {
        let server = try RedisTestServer()
        try await withClient(server.url()) { (client: RedisClient) async throws in
            let count = 2000
            let mismatches = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<count {
                    group.addTask {
                        let reply = try await client.send(RESPCommand("ECHO", "value-\(index)"))
                        return reply == .bulkString(Array("value-\(index)".utf8))
                    }
                }
                var wrong = 0
                for try await matched in group where !matched { wrong += 1 }
                return wrong
            }
            #expect(mismatches == 0)
            #expect(try await client.send(RESPCommand("DBSIZE")) == .integer(0))
        }
    }

    @Test func logsInWithThePasswordAndRefusesAWrongOneWithATypedError() async throws {
        let server = try RedisTestServer(password: "s3cret")
        try await withClient(server.url()) { (client: RedisClient) async throws in
            #expect(try await client.send(RESPCommand("PING")) == .simpleString("PONG"))
        }
        try await withClient(server.url(user: "default")) { (client: RedisClient) async throws in
            #expect(try await client.send(RESPCommand("PING")) == .simpleString("PONG"))
        }
        // The client logs in as soon as it is made. The PING is sent only after the refusal
        // came back, while the client waits (5 s) to try again: the backoff path, every run.
        try await withClient(server.url(password: "wrong"), configure: { $0.reconnectInitialDelay = 5000 }) {
            (client: RedisClient) async throws in
            await withCheckedContinuation { (refused: CheckedContinuation<Void, Never>) in
                let once = Mutex(Optional(refused))
                client.observeConnections { subscriber, _, error in
                    guard !subscriber, error != nil else { return }
                    once.withLock { $0.take() }?.resume()
                }
            }
            do throws(RedisError) {
                _ = try await client.send(RESPCommand("PING"))
                Issue.record("a wrong password was accepted")
            } catch {
                #expect(error.code == .authenticationFailed)
                #expect(error.message.contains("WRONGPASS"))
            }
            do throws(RedisError) {
                try await client.subscribe(channels: ["c"]) { _ in }
                Issue.record("a subscriber with a wrong password was confirmed")
            } catch {
                #expect(error.code == .authenticationFailed)
            }
        }
    }

    @Test func selectsTheDatabaseFromTheURL() async throws {
        let server = try RedisTestServer()
        try await withClient(server.url(database: 5)) { (client: RedisClient) async throws in
            _ = try await client.send(RESPCommand("SET", "where", "five"))
        }
        try await withClient(server.url(database: 0)) { (client: RedisClient) async throws in
            #expect(try await client.send(RESPCommand("GET", "where")) == .null)
        }
        try await withClient(server.url(database: 5)) { (client: RedisClient) async throws in
            #expect(try await client.send(RESPCommand("GET", "where")) == .bulkString(Array("five".utf8)))
        }
        try await withClient(server.url(database: 999)) { (client: RedisClient) async throws in
            await #expect(throws: RedisError.self) { try await client.send(RESPCommand("PING")) }
        }
    }

    @Test func publishedMessagesReachASubscriberOnItsOwnConnection() async throws {
        let server = try RedisTestServer()
        let received = Collector<RedisPubSubMessage>()
        try await withClient(server.url()) { (subscriber: RedisClient) async throws in
            try await subscriber.subscribe([.channel(Array("room:1".utf8)), .pattern(Array("doc:*".utf8))]) {
                received.append($0)
            }
            // The command connection of the same client stays usable while the other one subscribes.
            #expect(try await subscriber.send(RESPCommand("PING")) == .simpleString("PONG"))
            try await withClient(server.url()) { (publisher: RedisClient) async throws in
                let payload: [UInt8] = [0, 1, 2, 13, 10, 255]
                #expect(try await publisher.publish(payload, to: Array("room:1".utf8)) == 1)
                #expect(try await publisher.publish(Array("edit".utf8), to: Array("doc:42".utf8)) == 1)
                #expect(try await publisher.publish(Array("nobody".utf8), to: Array("room:2".utf8)) == 0)
                let messages = received.wait(count: 2)
                #expect(
                    messages == [
                        RedisPubSubMessage(channel: Array("room:1".utf8), payload: payload),
                        RedisPubSubMessage(channel: Array("doc:42".utf8), pattern: Array("doc:*".utf8), payload: Array("edit".utf8))
                    ])
            }
        }
    }

    @Test func subscriptionsAndCommandsComeBackAfterTheServerRestarts() async throws {
        let server = try RedisTestServer()
        let received = Collector<String>()
        let readiness = Collector<String>()
        try await withClient(server.url()) { (subscriber: RedisClient) async throws in
            subscriber.observeConnections { isSubscriber, ready, _ in
                readiness.append("\(isSubscriber ? "subscriber" : "commands") \(ready ? "ready" : "lost")")
            }
            try await subscriber.subscribe(channels: ["bus"]) { received.append(String(decoding: $0.payload, as: UTF8.self)) }
            try await withClient(server.url()) { (publisher: RedisClient) async throws in
                #expect(try await publisher.publish(Array("before".utf8), to: Array("bus".utf8)) == 1)
                #expect(received.wait(count: 1) == ["before"])

                server.stop()
                try server.start()

                // Publish until the subscriber is back (each publish says how many received it).
                var delivered = 0
                let guardDeadline = Date().addingTimeInterval(20)
                while delivered == 0, Date() < guardDeadline {
                    delivered = (try? await publisher.publish(Array("after".utf8), to: Array("bus".utf8))) ?? 0
                    if delivered == 0 { try await Task.sleep(for: .milliseconds(20)) }
                }
                #expect(delivered == 1)
                #expect(received.wait(count: 2).last == "after")
            }
            // The subscriber client's command connection reconnected as well.
            var reply: RESPValue?
            let guardDeadline = Date().addingTimeInterval(20)
            while reply == nil, Date() < guardDeadline {
                reply = try? await subscriber.send(RESPCommand("PING"))
                if reply == nil { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(reply == .simpleString("PONG"))
            #expect(readiness.snapshot.contains("subscriber lost"))
        }
    }

    @Test func aCancelledCommandDoesNotShiftLaterReplies() async throws {
        let server = try RedisTestServer()
        try await withClient(server.url(), configure: { $0.replyTimeout = nil }) { (client: RedisClient) async throws in
            _ = try await client.send(RESPCommand("SET", "after", "mine"))
            let blocked = Task { try await client.send(RESPCommand("BLPOP", "queue", "0")) }
            try await withClient(server.url()) { (other: RedisClient) async throws in
                // Wait until the server holds the BLPOP, so it was written before it is cancelled.
                let guardDeadline = Date().addingTimeInterval(20)
                while Date() < guardDeadline {
                    let info = try await other.send(RESPCommand("INFO", "clients"))
                    if let text = text(info), text.contains("blocked_clients:1") { break }
                    try await Task.sleep(for: .milliseconds(10))
                }
                blocked.cancel()
                do {
                    _ = try await blocked.value
                    Issue.record("the cancelled command returned a reply")
                } catch let error as RedisError {
                    #expect(error.code == .cancelled)
                }
                // Its reply (the pushed element) arrives now and must be dropped, not handed to GET.
                _ = try await other.send(RESPCommand("RPUSH", "queue", "element"))
            }
            #expect(try await client.send(RESPCommand("GET", "after")) == .bulkString(Array("mine".utf8)))
            #expect(try await client.send(RESPCommand("LLEN", "queue")) == .integer(0))
        }
    }

    @Test func garbageFromTheServerIsATypedProtocolError() async throws {
        let hostile = try HostileRedisServer(.garbage)
        try await withClient("redis://127.0.0.1:\(hostile.port)") { (client: RedisClient) async throws in
            do throws(RedisError) {
                _ = try await client.send(RESPCommand("GET", "k"))
                Issue.record("garbage was accepted as a reply")
            } catch {
                #expect(error.code == .protocolError)
                #expect(error.message.contains("resp_unknown_type"))
            }
        }
    }

    @Test func aHugeBulkHeaderClosesTheConnectionInsteadOfBuffering() async throws {
        let hostile = try HostileRedisServer(.hugeBulk)
        try await withClient(
            "redis://127.0.0.1:\(hostile.port)",
            configure: { $0.parserLimits = RESPParser.Limits(maxBulkLength: 1 << 20) }
        ) { (client: RedisClient) async throws in
            do throws(RedisError) {
                _ = try await client.send(RESPCommand("GET", "k"))
                Issue.record("a gigabyte bulk string was accepted")
            } catch {
                #expect(error.code == .protocolError)
                #expect(error.message.contains("resp_bulk_too_long"))
            }
        }
    }

    @Test func closeFailsLaterCommandsAndStopsDelivery() async throws {
        let server = try RedisTestServer()
        let received = Collector<RedisPubSubMessage>()
        try await withClient(server.url()) { (publisher: RedisClient) async throws in
            let group = try EventLoopGroup(threads: 1, logger: .silent)
            defer { group.shutdownAndWait() }
            let client = RedisClient(url: try RedisURL(parsing: server.url()), on: group.next())
            try await client.subscribe(channels: ["c"]) { received.append($0) }
            #expect(try await publisher.publish(Array("one".utf8), to: Array("c".utf8)) == 1)
            #expect(received.wait(count: 1).count == 1)
            client.close()
            await #expect(throws: RedisError(.clientClosed, "the Redis client was closed")) {
                try await client.send(RESPCommand("PING"))
            }
            await #expect(throws: RedisError.self) { try await client.subscribe(channels: ["d"]) { _ in } }
            // The subscriber connection is gone from the server's view once close has run.
            var receivers = 1
            let guardDeadline = Date().addingTimeInterval(20)
            while receivers != 0, Date() < guardDeadline {
                receivers = try await publisher.publish(Array("two".utf8), to: Array("c".utf8))
                if receivers != 0 { try await Task.sleep(for: .milliseconds(10)) }
            }
            #expect(receivers == 0)
            #expect(received.snapshot.count == 1)
        }
    }
}
