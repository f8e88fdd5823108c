import ParleyDocs
import ParleyText
import ParleyWire
import Testing

@Suite("y-websocket session")
struct YWebSocketSessionTests {
    private func sent(_ actions: [YWebSocketAction]) throws -> [YSyncMessage] {
        try actions.map { action in
            guard case .send(let bytes) = action else {
                Issue.record("expected a send, got \(action)")
                return .queryAwareness
            }
            return try YSyncMessage.decode(bytes)
        }
    }

    @Test func openSyncsAndRelaysBetweenSessions() async throws {
        try await withFixture { fixture in
            let publisher = RecordingPublisher()
            let service = fixture.service(publisher: publisher)
            let doc = try await service.createDocument(name: "n", access: .room(fixture.roomID), by: "alice")
            var alice = YWebSocketSession(service: service, userID: "alice", connectionID: "a", documentID: doc.id)
            var bob = YWebSocketSession(service: service, userID: "bob", connectionID: "b", documentID: doc.id)
            #expect(try sent(await alice.open()) == [.syncStep1(stateVector: [0])])
            #expect(alice.state == .open)

            var editor = TextDocument(clientID: 3)
            try editor.insert("hi", at: 0)
            let update = try #require(editor.takeLocalUpdate() as [UInt8]?)
            #expect(await alice.receive(YSyncMessage.update(update).encode()).isEmpty)
            let awareness = YSyncMessage.awareness(AwarenessUpdate(entries: [.init(clientID: 3, clock: 1, state: #"{"u":"a"}"#)]))
            #expect(await alice.receive(awareness.encode()).isEmpty)

            let opening = try sent(await bob.open())
            #expect(opening.count == 2)
            #expect(opening[1] == awareness)
            let reply = try sent(await bob.receive(YSyncMessage.syncStep1(stateVector: [0]).encode()))
            var replica = TextDocument(clientID: 4)
            try replica.applyUpdate(try #require(reply.first?.documentUpdate))
            #expect(replica.text == "hi")
            #expect(reply.count == 1, "bob already has the server's step 1 from opening")

            let broadcasts = publisher.take()
            #expect(broadcasts.map(\.kind) == [.update, .awareness])
            #expect(broadcasts.compactMap { alice.deliver($0) }.isEmpty, "nothing echoes to its origin")
            #expect(broadcasts.compactMap { bob.deliver($0) } == broadcasts.map(\.message))

            await alice.close()
            #expect(alice.state == .closed)
            let gone = publisher.take()
            #expect(gone.count == 1 && bob.deliver(gone[0]) != nil)
            #expect(await alice.receive(YSyncMessage.queryAwareness.encode()).isEmpty, "a closed session ignores input")
        }
    }

    @Test func refusalsClose() async throws {
        try await withFixture { fixture in
            let service = fixture.service(publisher: RecordingPublisher())
            let doc = try await service.createDocument(name: "n", access: .room(fixture.roomID), by: "alice")
            var intruder = YWebSocketSession(service: service, userID: "mallory", connectionID: "m", documentID: doc.id)
            #expect(await intruder.open() == [.close(YWebSocketSession.forbiddenCode, reason: "forbidden")])
            var lost = YWebSocketSession(service: service, userID: "alice", connectionID: "l", documentID: "missing")
            #expect(await lost.open() == [.close(YWebSocketSession.notFoundCode, reason: "document_not_found")])

            var garbled = YWebSocketSession(service: service, userID: "alice", connectionID: "g", documentID: doc.id)
            _ = await garbled.open()
            let refused = await garbled.receive([0, 2, 9, 1])
            guard case .close(.invalidPayload, let reason) = refused.first, refused.count == 1 else {
                Issue.record("expected a 1007 close, got \(refused)")
                return
            }
            #expect(reason.hasPrefix("malformed_message: "), "the reason says why: \(reason)")
            #expect(garbled.refusal?.code == .malformedMessage)
            #expect(garbled.state == .closed)
            var texting = YWebSocketSession(service: service, userID: "alice", connectionID: "t", documentID: doc.id)
            _ = await texting.open()
            #expect(await texting.receiveText() == [.close(.unsupportedData, reason: "y-websocket messages are binary")])
            #expect(try await service.text(documentID: doc.id).isEmpty)
        }
    }
}
