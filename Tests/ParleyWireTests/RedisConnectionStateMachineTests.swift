import Testing

@testable import ParleyWire

@Suite struct RedisConnectionStateMachineTests {
    typealias Machine = RedisConnectionStateMachine

    private func machine(
        _ url: String = "redis://127.0.0.1:6379", seed: UInt64 = 7,
        configure: (inout RedisConnectionConfiguration) -> Void = { _ in }
    ) throws -> Machine {
        var configuration = RedisConnectionConfiguration(url: try RedisURL(parsing: url))
        configure(&configuration)
        return Machine(configuration: configuration, seed: seed)
    }

    /// A machine whose connection is open and logged in at time 0.
    private func ready(
        _ url: String = "redis://127.0.0.1:6379",
        configure: (inout RedisConnectionConfiguration) -> Void = { _ in }
    ) throws -> Machine {
        var m = try machine(url, configure: configure)
        _ = m.start(now: 0)
        _ = m.connected(now: 0)
        #expect(m.phase == .ready)
        return m
    }

    private func command(_ name: String, _ arguments: String...) -> [UInt8] {
        RESPCommand([Array(name.utf8)] + arguments.map { Array($0.utf8) }).encoded
    }

    private func errorCode(_ actions: [Machine.Action], id: Machine.CommandID) -> RedisError.Code? {
        for case .fail(let failed, let error) in actions where failed == id { return error.code }
        return nil
    }

    private func disconnected(_ actions: [Machine.Action]) -> RedisError.Code? {
        for case .disconnected(let error) in actions { return error.code }
        return nil
    }

    // MARK: Connecting and logging in

    @Test func holdsCommandsUntilTheConnectionIsReady() throws {
        var m = try machine()
        #expect(m.start(now: 0) == [.connect(host: "127.0.0.1", port: 6379)])
        #expect(m.send(RESPCommand("GET", "k"), id: 1, now: 0) == [])
        #expect(m.connected(now: 5) == [.ready, .write(command("GET", "k"))])
        #expect(m.receive(Array("$3\r\nbar\r\n".utf8), now: 6) == [.succeed(1, .bulkString(Array("bar".utf8)))])
    }

    @Test func logsInAndSelectsTheDatabaseBeforeAnyCommand() throws {
        var m = try machine("redis://parley:s%40cret@127.0.0.1:6380/3")
        _ = m.start(now: 0)
        _ = m.send(RESPCommand("INCR", "n"), id: 1, now: 0)
        #expect(m.connected(now: 0) == [.write(command("AUTH", "parley", "s@cret") + command("SELECT", "3"))])
        #expect(m.phase == .authenticating)
        #expect(m.receive(Array("+OK\r\n".utf8), now: 1) == [])
        #expect(m.receive(Array("+OK\r\n".utf8), now: 1) == [.ready, .write(command("INCR", "n"))])
        #expect(m.receive(Array(":1\r\n".utf8), now: 2) == [.succeed(1, .integer(1))])
    }

    @Test func aPasswordWithoutUserSendsTheOneArgumentAuth() throws {
        var m = try machine("redis://:pw@127.0.0.1")
        _ = m.start(now: 0)
        #expect(m.connected(now: 0) == [.write(command("AUTH", "pw"))])
    }

    @Test func aRefusedLoginFailsHeldCommandsWithATypedErrorAndReconnects() throws {
        var m = try machine("redis://:wrong@127.0.0.1/2")
        _ = m.start(now: 0)
        _ = m.send(RESPCommand("GET", "k"), id: 1, now: 0)
        _ = m.connected(now: 0)
        let actions = m.receive(Array("-WRONGPASS invalid username-password pair\r\n-ERR x\r\n".utf8), now: 1)
        #expect(errorCode(actions, id: 1) == .authenticationFailed)
        #expect(actions.contains(.closeConnection))
        #expect(disconnected(actions) == .authenticationFailed)
        #expect(m.phase == .waitingToReconnect)
        #expect(m.lastError?.code == .authenticationFailed)
    }

    @Test func aCommandSentDuringTheBackoffAfterARefusedLoginCarriesTheRefusal() throws {
        var m = try machine("redis://:wrong@127.0.0.1/2")
        _ = m.start(now: 0)
        _ = m.connected(now: 0)
        _ = m.receive(Array("-WRONGPASS invalid username-password pair\r\n".utf8), now: 1)
        #expect(m.phase == .waitingToReconnect)
        let actions = m.send(RESPCommand("GET", "k"), id: 1, now: 2)
        #expect(errorCode(actions, id: 1) == .authenticationFailed)
        for case .fail(_, let error) in actions { #expect(error.message.contains("WRONGPASS")) }
    }

    @Test func aRefusedSelectIsItsOwnError() throws {
        var m = try machine("redis://127.0.0.1/99")
        _ = m.start(now: 0)
        _ = m.connected(now: 0)
        let actions = m.receive(Array("-ERR DB index is out of range\r\n".utf8), now: 1)
        #expect(disconnected(actions) == .selectFailed)
    }

    @Test func aConnectOrLoginThatTakesTooLongTimesOut() throws {
        var m = try machine { $0.connectTimeout = 1000 }
        _ = m.start(now: 0)
        #expect(m.nextDeadline == 1000)
        #expect(m.tick(now: 999) == [])
        #expect(disconnected(m.tick(now: 1000)) == .timedOut)
    }

    // MARK: Replies

    @Test func pipelinedRepliesAreMatchedInOrderAndAnErrorFailsOnlyItsCommand() throws {
        var m = try ready()
        #expect(m.send(RESPCommand("SET", "a", "1"), id: 1, now: 1) == [.write(command("SET", "a", "1"))])
        _ = m.send(RESPCommand("LPUSH", "a", "x"), id: 2, now: 1)
        _ = m.send(RESPCommand("GET", "a"), id: 3, now: 1)
        let replies = Array("+OK\r\n-WRONGTYPE Operation against a key holding the wrong kind of value\r\n$1\r\n1\r\n".utf8)
        var actions: [Machine.Action] = []
        for byte in replies { actions += m.receive([byte], now: 2) }
        #expect(
            actions == [
                .succeed(1, .simpleString("OK")),
                .fail(2, RedisError(.serverError, "WRONGTYPE Operation against a key holding the wrong kind of value")),
                .succeed(3, .bulkString(Array("1".utf8)))
            ])
        #expect(m.phase == .ready)
    }

    @Test func bytesThatAreNotRESPCloseTheConnectionAndFailEverythingOutstanding() throws {
        var m = try ready()
        _ = m.send(RESPCommand("GET", "a"), id: 1, now: 1)
        _ = m.send(RESPCommand("GET", "b"), id: 2, now: 1)
        let actions = m.receive(Array("HTTP/1.1 400 Bad Request\r\n".utf8), now: 2)
        #expect(errorCode(actions, id: 1) == .protocolError)
        #expect(errorCode(actions, id: 2) == .protocolError)
        #expect(actions.contains(.closeConnection))
        #expect(m.phase == .waitingToReconnect)
        #expect(m.outstandingCount == 0)
    }

    @Test func aBulkHeaderOverTheLimitIsAProtocolErrorBeforeItsBytesArrive() throws {
        var m = try ready { $0.parserLimits = RESPParser.Limits(maxBulkLength: 1024) }
        _ = m.send(RESPCommand("GET", "a"), id: 1, now: 1)
        let actions = m.receive(Array("$1073741824\r\n".utf8), now: 2)
        guard case .fail(1, let error)? = actions.first else {
            Issue.record("expected the command to fail, got \(actions)")
            return
        }
        #expect(error.code == .protocolError)
        #expect(error.message.contains("resp_bulk_too_long"))
    }

    @Test func aReplyNobodyAskedForClosesTheConnection() throws {
        var m = try ready()
        let actions = m.receive(Array("+OK\r\n".utf8), now: 1)
        #expect(actions.contains(.closeConnection))
        #expect(disconnected(actions) == .unexpectedReply)
    }

    @Test func commandsThatReshapeTheReplyStreamAreRefused() throws {
        var m = try ready()
        for name in ["subscribe", "MONITOR", "Quit", "HELLO"] {
            #expect(errorCode(m.send(RESPCommand(name, "x"), id: 9, now: 1), id: 9) == .invalidArgument)
        }
        #expect(errorCode(m.send(RESPCommand([]), id: 9, now: 1), id: 9) == .invalidArgument)
        #expect(m.outstandingCount == 0)
    }

    // MARK: Cancellation

    @Test func aCancelledHeldCommandIsNeverSent() throws {
        var m = try machine()
        _ = m.start(now: 0)
        _ = m.send(RESPCommand("GET", "a"), id: 1, now: 0)
        _ = m.send(RESPCommand("GET", "b"), id: 2, now: 0)
        #expect(m.cancel(1) == [.fail(1, RedisError(.cancelled, "the command was cancelled"))])
        #expect(m.connected(now: 1) == [.ready, .write(command("GET", "b"))])
    }

    @Test func aCancelledSentCommandsReplyIsReadAndDropped() throws {
        var m = try ready()
        _ = m.send(RESPCommand("BLPOP", "q", "0"), id: 1, now: 1)
        _ = m.send(RESPCommand("GET", "a"), id: 2, now: 1)
        #expect(errorCode(m.cancel(1), id: 1) == .cancelled)
        #expect(m.cancel(1) == [])
        #expect(m.outstandingCount == 2)
        let actions = m.receive(Array("*2\r\n$1\r\nq\r\n$1\r\nv\r\n$1\r\n7\r\n".utf8), now: 2)
        #expect(actions == [.succeed(2, .bulkString(Array("7".utf8)))])
    }

    // MARK: Pub/sub

    @Test func subscriberModeConfirmsDeliversAndRefusesOrdinaryCommands() throws {
        var m = try ready()
        let a = RedisSubscriptionTarget.channel(Array("a".utf8))
        let b = RedisSubscriptionTarget.channel(Array("b".utf8))
        let p = RedisSubscriptionTarget.pattern(Array("room:*".utf8))
        #expect(m.subscribe([b, p, a], now: 1) == [.write(command("SUBSCRIBE", "a", "b") + command("PSUBSCRIBE", "room:*"))])
        #expect(errorCode(m.send(RESPCommand("GET", "k"), id: 1, now: 1), id: 1) == .subscriberMode)
        #expect(m.send(RESPCommand("PING"), id: 2, now: 1) == [.write(command("PING"))])
        let confirmations =
            "*3\r\n$9\r\nsubscribe\r\n$1\r\na\r\n:1\r\n*3\r\n$9\r\nsubscribe\r\n$1\r\nb\r\n:2\r\n"
            + "*3\r\n$10\r\npsubscribe\r\n$6\r\nroom:*\r\n:3\r\n"
        #expect(m.receive(Array(confirmations.utf8), now: 2) == [.subscribed(a), .subscribed(b), .subscribed(p)])
        let traffic =
            "*3\r\n$7\r\nmessage\r\n$1\r\na\r\n$3\r\nh\0i\r\n"
            + "*4\r\n$8\r\npmessage\r\n$6\r\nroom:*\r\n$6\r\nroom:1\r\n$0\r\n\r\n"
            + "*2\r\n$4\r\npong\r\n$0\r\n\r\n"
        #expect(
            m.receive(Array(traffic.utf8), now: 3) == [
                .message(RedisPubSubMessage(channel: Array("a".utf8), payload: Array("h\0i".utf8))),
                .message(RedisPubSubMessage(channel: Array("room:1".utf8), pattern: Array("room:*".utf8), payload: [])),
                .succeed(2, .array([.bulkString(Array("pong".utf8)), .bulkString([])]))
            ])
        #expect(m.subscribe([a], now: 4) == [.subscribed(a)])
    }

    @Test func unsubscribingEverythingLeavesSubscriberMode() throws {
        var m = try ready()
        let a = RedisSubscriptionTarget.channel(Array("a".utf8))
        _ = m.subscribe([a], now: 1)
        _ = m.receive(Array("*3\r\n$9\r\nsubscribe\r\n$1\r\na\r\n:1\r\n".utf8), now: 1)
        #expect(m.unsubscribe([a], now: 2) == [.write(command("UNSUBSCRIBE", "a"))])
        #expect(m.isSubscriber)
        #expect(m.receive(Array("*3\r\n$11\r\nunsubscribe\r\n$1\r\na\r\n:0\r\n".utf8), now: 3) == [])
        #expect(!m.isSubscriber)
        #expect(m.send(RESPCommand("GET", "k"), id: 1, now: 4) == [.write(command("GET", "k"))])
    }

    @Test func aConfirmationForAChannelNeverAskedForClosesTheConnection() throws {
        var m = try ready()
        _ = m.subscribe([.channel(Array("a".utf8))], now: 1)
        let actions = m.receive(Array("*3\r\n$9\r\nsubscribe\r\n$5\r\nother\r\n:1\r\n".utf8), now: 2)
        #expect(disconnected(actions) == .unexpectedReply)
    }

    @Test func aMessageWithTheWrongShapeClosesTheConnection() throws {
        var m = try ready()
        _ = m.subscribe([.channel(Array("a".utf8))], now: 1)
        let actions = m.receive(Array("*2\r\n$7\r\nmessage\r\n$1\r\na\r\n".utf8), now: 2)
        #expect(disconnected(actions) == .unexpectedReply)
    }

    @Test func subscriptionsAreRenewedAfterAReconnect() throws {
        var m = try ready { $0.reconnectInitialDelay = 100 }
        let a = RedisSubscriptionTarget.channel(Array("a".utf8))
        let p = RedisSubscriptionTarget.pattern(Array("p*".utf8))
        _ = m.subscribe([a, p], now: 1)
        _ = m.receive(Array("*3\r\n$9\r\nsubscribe\r\n$1\r\na\r\n:1\r\n*3\r\n$10\r\npsubscribe\r\n$2\r\np*\r\n:2\r\n".utf8), now: 1)
        #expect(disconnected(m.connectionClosed(nil, now: 10)) == .connectionClosed)
        let deadline = try #require(m.nextDeadline)
        #expect(m.tick(now: deadline) == [.connect(host: "127.0.0.1", port: 6379)])
        #expect(m.connected(now: deadline + 1) == [.ready, .write(command("SUBSCRIBE", "a") + command("PSUBSCRIBE", "p*"))])
        let again = m.receive(
            Array("*3\r\n$9\r\nsubscribe\r\n$1\r\na\r\n:1\r\n*3\r\n$10\r\npsubscribe\r\n$2\r\np*\r\n:2\r\n".utf8),
            now: deadline + 2)
        #expect(again == [.subscribed(a), .subscribed(p)])
    }

    // MARK: Timers and reconnects

    @Test func aReplyThatDoesNotComeInTimeClosesTheConnection() throws {
        var m = try ready {
            $0.replyTimeout = 2000; $0.pingInterval = nil
        }
        _ = m.send(RESPCommand("GET", "a"), id: 1, now: 100)
        #expect(m.nextDeadline == 2100)
        #expect(m.tick(now: 2099) == [])
        let actions = m.tick(now: 2100)
        #expect(errorCode(actions, id: 1) == .timedOut)
        #expect(actions.contains(.closeConnection))
    }

    @Test func aQuietConnectionIsPingedAndASilentServerTimesOut() throws {
        var m = try ready {
            $0.replyTimeout = 1000; $0.pingInterval = 5000
        }
        #expect(m.nextDeadline == 5000)
        #expect(m.tick(now: 4999) == [])
        #expect(m.tick(now: 5000) == [.write(command("PING"))])
        #expect(m.receive(Array("+PONG\r\n".utf8), now: 5001) == [])
        #expect(m.nextDeadline == 10001)
        #expect(m.tick(now: 10001) == [.write(command("PING"))])
        #expect(disconnected(m.tick(now: 11001)) == .timedOut)
    }

    @Test func reconnectsBackOffExponentiallyWithSeededJitterUpToTheCap() throws {
        var m = try ready {
            $0.reconnectInitialDelay = 100; $0.reconnectMaxDelay = 1000
        }
        var random = SplitMix64(seed: 7)
        var now: Int64 = 10
        _ = m.connectionClosed(nil, now: now)
        for base: Int64 in [100, 200, 400, 800, 1000, 1000] {
            let expected = base / 2 + Int64(random.next() % UInt64(base / 2 + 1))
            let deadline = try #require(m.nextDeadline)
            #expect(deadline - now == expected)
            #expect(m.tick(now: deadline - 1) == [])
            #expect(errorCode(m.send(RESPCommand("GET", "a"), id: 1, now: deadline - 1), id: 1) == .notConnected)
            #expect(m.tick(now: deadline) == [.connect(host: "127.0.0.1", port: 6379)])
            now = deadline + 1
            #expect(disconnected(m.connectionClosed(RedisError(.connectionClosed, "refused"), now: now)) == .connectionClosed)
        }
        #expect(m.failedAttempts == 7)
        _ = m.tick(now: try #require(m.nextDeadline))
        _ = m.connected(now: now)
        #expect(m.failedAttempts == 0)
    }

    @Test func closeFailsEverythingAndRefusesLaterCommands() throws {
        var m = try ready()
        _ = m.send(RESPCommand("GET", "a"), id: 1, now: 1)
        let actions = m.close()
        #expect(errorCode(actions, id: 1) == .clientClosed)
        #expect(actions.last == .closeConnection)
        #expect(errorCode(m.send(RESPCommand("GET", "a"), id: 2, now: 2), id: 2) == .clientClosed)
        #expect(m.connectionClosed(nil, now: 3) == [])
        #expect(m.nextDeadline == nil)
    }
}
