import Testing

@testable import ParleyText

@Suite("y-protocols messages")
struct YSyncMessageTests {
    /// Known answers assembled by hand from the y-protocols and lib0 specifications.
    @Test func knownAnswers() throws {
        // messageSync(0), step1(0), varUint8Array of the state vector {5: 3} = [01 05 03].
        #expect(YSyncMessage.syncStep1(stateVector: [1, 5, 3]).encode() == [0, 0, 3, 1, 5, 3])
        #expect(YSyncMessage.syncStep2(update: [0, 0]).encode() == [0, 1, 2, 0, 0])
        #expect(YSyncMessage.update([0, 0]).encode() == [0, 2, 2, 0, 0])
        #expect(YSyncMessage.queryAwareness.encode() == [3])
        // messageAuth(2), permissionDenied(0), varString "no".
        #expect(YSyncMessage.permissionDenied(reason: "no").encode() == [2, 0, 2, 0x6E, 0x6F])
        // messageAwareness(1), varUint8Array(update): 1 entry, client 300 (AC 02), clock 2, "{}".
        let awareness = AwarenessUpdate(entries: [.init(clientID: 300, clock: 2, state: "{}")])
        #expect(YSyncMessage.awareness(awareness).encode() == [1, 7, 1, 0xAC, 0x02, 2, 2, 0x7B, 0x7D])
        let removal = AwarenessUpdate(entries: [.init(clientID: 1, clock: 4, state: nil)])
        #expect(removal.encode() == [1, 1, 4, 4] + Array("null".utf8))
    }

    @Test func roundTrips() throws {
        var doc = TextDocument(clientID: 9)
        try doc.insert("héllo", at: 0)
        let update = try take(&doc)
        let messages: [YSyncMessage] = [
            .syncStep1(stateVector: doc.encodeStateVector()),
            .syncStep1(stateVector: [0]),
            .syncStep2(update: update),
            .update(update),
            .update([]),
            .awareness(
                AwarenessUpdate(entries: [
                    .init(clientID: 1, clock: 0, state: #"{"user":{"name":"Zoë"}}"#),
                    .init(clientID: (1 << 53) - 1, clock: 77, state: nil)
                ])),
            .awareness(AwarenessUpdate(entries: [])),
            .permissionDenied(reason: "room membership required"),
            .queryAwareness
        ]
        for message in messages {
            #expect(try YSyncMessage.decode(message.encode()) == message)
        }
    }

    @Test func malformedMessagesAreRejectedWithTypedErrors() {
        let cases: [([UInt8], YSyncError)] = [
            ([], .empty),
            ([9], .unknownMessageType(9)),
            ([0x80], .truncated),
            ([0, 3, 0], .unknownSyncType(3)),
            ([0, 0], .truncated),
            ([0, 2, 5, 1, 2], .truncated),
            ([0, 0, 1, 7], .invalidStateVector),  // claims 7 entries, has none
            ([0, 0, 2, 1, 5], .invalidStateVector),  // client without a clock
            ([0, 2, 0, 9], .trailingBytes),
            ([3, 0], .trailingBytes),
            ([2, 1, 0], .unknownAuthType(1)),
            ([2, 0, 2, 0xC3, 0x28], .invalidUTF8),
            ([1, 4, 1, 1, 1, 1], .truncated),  // the update ends inside the state string
            ([1, 5, 1, 1, 1, 1, 0xFF], .invalidUTF8),
            ([1, 2, 0, 0], .trailingBytes),  // bytes after the awareness entries
            ([1, 3, 0x85, 0x80, 0x00], .varintOverlong),
            ([1, 1, 200], .truncated),  // 200 entries in a one-byte payload
            ([0, 2] + Array(repeating: 0xFF, count: 10) + [0x01], .varintOverflow),
            ([1, 11, 1, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x10, 0, 2], .valueOutOfRange)
        ]
        for (bytes, expected) in cases {
            #expect(throws: expected, "\(bytes)") { try YSyncMessage.decode(bytes) }
        }
    }

    @Test func everyTruncationOfAValidMessageFailsCleanly() throws {
        let message = YSyncMessage.awareness(
            AwarenessUpdate(entries: [
                .init(clientID: 12345, clock: 3, state: #"{"cursor":{"anchor":4}}"#)
            ])
        ).encode()
        for length in 0..<message.count {
            #expect(throws: YSyncError.self) { try YSyncMessage.decode(Array(message[..<length])) }
        }
    }

    @Test func applyIfCompleteRefusesUpdatesThatWouldWait() throws {
        var writer = TextDocument(clientID: 1)
        try writer.insert("ab", at: 0)
        let first = try take(&writer)
        try writer.insert("c", at: 2)
        let second = try take(&writer)
        try writer.delete(at: 0, count: 1)
        let deletion = try take(&writer)

        var server = TextDocument(clientID: 99)
        #expect(try !server.applyUpdateIfComplete(second), "depends on the first update")
        #expect(try !server.applyUpdateIfComplete(deletion), "deletes clocks not yet seen")
        #expect(server.text.isEmpty && !server.hasPendingUpdates && server.stateVector.isEmpty)
        #expect(try server.applyUpdateIfComplete(first))
        #expect(try server.applyUpdateIfComplete(second))
        #expect(try server.applyUpdateIfComplete(deletion))
        #expect(try server.applyUpdateIfComplete(first), "a known update is complete (a no-op)")
        #expect(server.text == "bc")
        // A whole-state update from another replica carrying several clients at once.
        var other = TextDocument(clientID: 2)
        try other.applyUpdate(server.encodeStateAsUpdate())
        try other.insert("X", at: 1)
        var fresh = TextDocument(clientID: 98)
        #expect(try fresh.applyUpdateIfComplete(other.encodeStateAsUpdate()))
        #expect(fresh.text == "bXc")
        #expect(throws: ParleyTextError.truncated) { try fresh.applyUpdateIfComplete([1]) }
    }
}

/// The document's local edits as one update; fails the test when there were none.
private func take(_ document: inout TextDocument) throws -> [UInt8] {
    let update = document.takeLocalUpdate()
    return try #require(update)
}

@Suite("Awareness")
struct AwarenessTests {
    private func update(_ client: UInt64, _ clock: UInt64, _ state: String?) -> AwarenessUpdate {
        AwarenessUpdate(entries: [.init(clientID: client, clock: clock, state: state)])
    }

    @Test func newerClockWinsAndNullRemoves() {
        var awareness = Awareness()
        #expect(awareness.apply(update(1, 1, #"{"a":1}"#), now: 0) == AwarenessChange(added: [1]))
        #expect(awareness.apply(update(1, 1, #"{"a":2}"#), now: 1).isEmpty, "same clock: ignored")
        #expect(awareness.apply(update(1, 0, #"{"a":3}"#), now: 1).isEmpty, "older clock: ignored")
        #expect(awareness.states[1] == #"{"a":1}"#)
        #expect(awareness.apply(update(1, 2, #"{"a":4}"#), now: 2) == AwarenessChange(updated: [1]))
        #expect(awareness.apply(update(1, 2, nil), now: 3) == AwarenessChange(removed: [1]), "null at the same clock removes")
        #expect(awareness.states[1] == nil)
        #expect(awareness.clock(of: 1) == 2)
        #expect(awareness.apply(update(1, 2, nil), now: 3).isEmpty, "removing twice changes nothing")
        #expect(awareness.apply(update(1, 3, "{}"), now: 4) == AwarenessChange(added: [1]))
    }

    @Test func timeoutsUseTheInjectedClock() {
        var awareness = Awareness(timeout: 30_000)
        awareness.apply(update(1, 1, "{}"), now: 1_000)
        awareness.apply(update(2, 1, "{}"), now: 20_000)
        #expect(awareness.expire(now: 30_999).isEmpty)
        #expect(awareness.expire(now: 31_000) == AwarenessChange(removed: [1]))
        #expect(awareness.states.keys.sorted() == [2])
        // Peers learn of the removal at the client's last clock.
        #expect(awareness.update(for: [1]) == update(1, 1, nil))
    }

    @Test func localStateIsRenewedAndCannotBeRemovedRemotely() {
        var awareness = Awareness(localClientID: 7, timeout: 30_000)
        awareness.setLocalState(#"{"name":"me"}"#, now: 0)
        awareness.setLocalState(#"{"name":"me2"}"#, now: 0)
        #expect(awareness.clock(of: 7) == 1)
        let change = awareness.apply(update(7, 1, nil), now: 5)
        #expect(change == AwarenessChange(updated: [7]))
        #expect(awareness.localState == #"{"name":"me2"}"#)
        #expect(awareness.clock(of: 7) == 2, "the clock moves past the remote removal")
        #expect(awareness.expire(now: 14_999).isEmpty)
        #expect(awareness.expire(now: 15_005) == AwarenessChange(updated: [7]))
        #expect(awareness.clock(of: 7) == 3)
    }

    @Test func queryAnswerHoldsEveryPresentClient() {
        var awareness = Awareness()
        awareness.apply(
            AwarenessUpdate(entries: [
                .init(clientID: 3, clock: 1, state: "{}"),
                .init(clientID: 1, clock: 5, state: #"{"x":1}"#),
                .init(clientID: 2, clock: 1, state: nil)
            ]), now: 0)
        #expect(
            awareness.fullUpdate()
                == AwarenessUpdate(entries: [
                    .init(clientID: 1, clock: 5, state: #"{"x":1}"#),
                    .init(clientID: 3, clock: 1, state: "{}")
                ]))
        #expect(awareness.remove([3, 9], now: 1) == AwarenessChange(removed: [3]))
    }
}
