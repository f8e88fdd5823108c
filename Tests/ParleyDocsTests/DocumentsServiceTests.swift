import ParleyDocs
import ParleyStore
import ParleyText
import Testing

@Suite("Documents service: sync, validation, persistence")
struct DocumentsServiceTests {
    @Test func twoClientsSyncingThroughTheServiceConverge() async throws {
        try await withFixture { fixture in
            let publisher = RecordingPublisher()
            let service = fixture.service(publisher: publisher)
            let doc = try await service.createDocument(name: "notes", access: .room(fixture.roomID), by: "alice")
            var alice = TestClient("alice", connection: "c1", clientID: 11)
            var bob = TestClient("bob", connection: "c2", clientID: 22)
            try await alice.connect(to: service, document: doc.id)
            try await bob.connect(to: service, document: doc.id)

            try alice.doc.insert("hello", at: 0)
            try bob.doc.insert("world", at: 0)  // concurrent with alice's insert
            try await alice.push(to: service, document: doc.id)
            try await bob.push(to: service, document: doc.id)
            let broadcasts = publisher.take()
            #expect(broadcasts.map(\.origin) == [alice.participant, bob.participant], "published in order, after durability")
            #expect(broadcasts.allSatisfy { $0.pusherChannel == "private-doc-\(doc.id)" && $0.kind == .update })
            try alice.receive(broadcasts)
            try bob.receive(broadcasts)

            try alice.doc.insert("!", at: alice.doc.count)
            try bob.doc.delete(at: 0, count: 1)
            try await bob.push(to: service, document: doc.id)
            try await alice.push(to: service, document: doc.id)
            let more = publisher.take()
            try alice.receive(more)
            try bob.receive(more)

            let serverText = try await service.text(documentID: doc.id)
            #expect(alice.doc.text == bob.doc.text)
            #expect(alice.doc.text == serverText)
            #expect(serverText.count == 10)
        }
    }

    @Test func offlineEditsAreMergedOnReconnect() async throws {
        try await withFixture { fixture in
            let publisher = RecordingPublisher()
            let service = fixture.service(publisher: publisher)
            let doc = try await service.createDocument(name: "n", access: .users(["bob"]), by: "alice")
            var alice = TestClient("alice", connection: "c1", clientID: 1)
            var bob = TestClient("bob", connection: "c2", clientID: 2)
            try alice.doc.insert("shared ", at: 0)
            try await alice.connect(to: service, document: doc.id)  // alice's step 2 carries her text
            try await bob.connect(to: service, document: doc.id)
            #expect(bob.doc.text == "shared ")

            await service.leave(bob.participant, documentID: doc.id)  // bob goes offline
            try bob.doc.insert("offline-bob ", at: bob.doc.count)
            try alice.doc.insert("online-alice ", at: 0)
            try await alice.push(to: service, document: doc.id)
            _ = publisher.take()  // bob is offline: he misses it

            try await bob.connect(to: service, document: doc.id)
            _ = bob.doc.takeLocalUpdate()  // sent in the handshake already
            try alice.receive(publisher.take())
            let serverText = try await service.text(documentID: doc.id)
            #expect(bob.doc.text == serverText)
            #expect(alice.doc.text == serverText)
            #expect(serverText.contains("offline-bob") && serverText.contains("online-alice"))
        }
    }

    @Test func badUpdatesAreRejectedAndChangeNothing() async throws {
        try await withFixture { fixture in
            let publisher = RecordingPublisher()
            var configuration = DocumentsConfiguration()
            configuration.maxUpdateBytes = 4_096
            configuration.maxDocumentBytes = 8_192
            let service = fixture.service(publisher: publisher, configuration: configuration)
            let doc = try await service.createDocument(name: "n", access: .room(fixture.roomID), by: "alice")
            var alice = TestClient("alice", connection: "c1", clientID: 1)
            try await alice.connect(to: service, document: doc.id)
            try alice.doc.insert("keep me", at: 0)
            try await alice.push(to: service, document: doc.id)
            _ = publisher.take()
            let stored = try await fixture.documentStore.content(app: DocsFixture.app, id: doc.id)
            let hostile = DocumentParticipant(userID: "bob", connectionID: "hostile")

            var writer = TextDocument(clientID: 66)
            try writer.applyUpdate(alice.doc.encodeStateAsUpdate())
            try writer.insert("x", at: 0)
            let valid = try #require(writer.takeLocalUpdate() as [UInt8]?)

            var unknownContent = valid
            unknownContent[4] = 0x0B | (unknownContent[4] & 0xE0)  // a content ref Yjs does not define
            // A nested type of a kind Yjs does not define, and an "any" value with an unknown tag.
            let unknownType: [UInt8] = [1, 1, 5, 0, 7, 1, 4, 0x6D, 0x61, 0x70, 0x73, 9, 0]
            let badAny: [UInt8] = [1, 1, 5, 0, 8, 1, 4, 0x6D, 0x61, 0x70, 0x73, 1, 0x50, 0]
            let cases: [([UInt8], DocumentsError.Code)] = [
                ([0, 2], .malformedMessage),
                ([7, 1, 2], .malformedMessage),
                (YSyncMessage.update(Array(valid.dropLast(2))).encode(), .invalidUpdate),
                (YSyncMessage.update(unknownContent).encode(), .invalidUpdate),
                (YSyncMessage.update(unknownType).encode(), .invalidUpdate),
                (YSyncMessage.update(badAny).encode(), .invalidUpdate),
                (
                    YSyncMessage.update([1, 1, 66, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]).encode(),
                    .invalidUpdate
                ),
                (YSyncMessage.update(Array(repeating: 0, count: 5_000)).encode(), .updateTooLarge),
                (YSyncMessage.syncStep1(stateVector: [1, 5]).encode(), .malformedMessage)
            ]
            for (message, code) in cases {
                await expectDocsError(code) { try await service.handleSync(hostile, documentID: doc.id, message: message) }
            }
            // Big but valid updates fill the document up to its limit, then are refused.
            var big = TextDocument(clientID: 77)
            try big.applyUpdate(alice.doc.encodeStateAsUpdate())
            var accepted = 0
            var refused: DocumentsError?
            for _ in 0..<5 {
                try big.insert(String(repeating: "z", count: 3_000), at: 0)
                let update = try #require(big.takeLocalUpdate() as [UInt8]?)
                do {
                    _ = try await service.handleSync(hostile, documentID: doc.id, message: YSyncMessage.update(update).encode())
                    accepted += 1
                } catch let error as DocumentsError {
                    refused = error
                    break
                }
            }
            #expect(accepted == 2 && refused?.code == .documentTooLarge)
            #expect(try await service.text(documentID: doc.id) == String(repeating: "z", count: 6_000) + "keep me")
            let after = try await fixture.documentStore.content(app: DocsFixture.app, id: doc.id)
            #expect(after.lastSeq == stored.lastSeq + 2, "only the two valid updates were stored")
            #expect(publisher.take().count == 2, "only the two valid updates were forwarded")

            // The valid update still applies: nothing was half-applied by the rejected ones.
            _ = try await service.handleSync(hostile, documentID: doc.id, message: YSyncMessage.update(valid).encode())
            #expect(try await service.text(documentID: doc.id).count == 6_008)
        }
    }

    @Test func updatesThatAddNothingAreNeitherStoredNorForwarded() async throws {
        try await withFixture { fixture in
            let publisher = RecordingPublisher()
            let service = fixture.service(publisher: publisher)
            let doc = try await service.createDocument(name: "n", access: .users([]), by: "alice")
            var alice = TestClient("alice", connection: "c1", clientID: 1)
            try await alice.connect(to: service, document: doc.id)
            try alice.doc.insert("abc", at: 0)
            let update = try #require(alice.doc.takeLocalUpdate() as [UInt8]?)
            let message = YSyncMessage.update(update).encode()
            _ = try await service.handleSync(alice.participant, documentID: doc.id, message: message)
            _ = try await service.handleSync(alice.participant, documentID: doc.id, message: message)
            _ = try await service.handleSync(alice.participant, documentID: doc.id, message: YSyncMessage.update([0, 0]).encode())
            #expect(try await fixture.documentStore.content(app: DocsFixture.app, id: doc.id).lastSeq == 1)
            #expect(publisher.take().count == 1)
        }
    }

    @Test(arguments: DocsEngine.available)
    func contentSurvivesReopeningTheStore(_ engine: DocsEngine) async throws {
        let fixture = try await DocsFixture.make(engine)
        defer { fixture.cleanup() }
        let publisher = RecordingPublisher()
        var configuration = DocumentsConfiguration()
        configuration.compactAfterUpdates = 4
        let service = fixture.service(publisher: publisher, configuration: configuration)
        let doc = try await service.createDocument(name: "n", access: .room(fixture.roomID), by: "alice")
        var alice = TestClient("alice", connection: "c1", clientID: 1)
        try await alice.connect(to: service, document: doc.id)
        for index in 0..<10 {
            try alice.doc.insert("é\(index)🙂", at: alice.doc.count / 2)
            if index % 3 == 2 { try alice.doc.delete(at: 1, count: 2) }
            try await alice.push(to: service, document: doc.id)
        }
        let expected = alice.doc.text
        #expect(try await service.text(documentID: doc.id) == expected)
        await fixture.chat.close()

        let reopened = try await fixture.reopened()
        let again = reopened.service(publisher: RecordingPublisher(), configuration: configuration)
        #expect(try await again.text(documentID: doc.id) == expected)
        var bob = TestClient("bob", connection: "c2", clientID: 2)
        try await bob.connect(to: again, document: doc.id)
        #expect(bob.doc.text == expected)
        await reopened.chat.close()
    }

    @Test func compactionKeepsTheContentIdentical() async throws {
        try await withFixture { fixture in
            var configuration = DocumentsConfiguration()
            configuration.compactAfterUpdates = 5
            let service = fixture.service(publisher: RecordingPublisher(), configuration: configuration)
            let doc = try await service.createDocument(name: "n", access: .users([]), by: "alice")
            var alice = TestClient("alice", connection: "c1", clientID: 1)
            try await alice.connect(to: service, document: doc.id)
            var sawSnapshot = false
            for index in 0..<23 {
                try alice.doc.insert("w\(index) ", at: index % 2 == 0 ? 0 : alice.doc.count)
                if index % 4 == 3 { try alice.doc.delete(at: 2, count: 3) }
                try await alice.push(to: service, document: doc.id)
                let content = try await fixture.documentStore.content(app: DocsFixture.app, id: doc.id)
                #expect(content.updates.count < 5, "the log is compacted every 5 updates")
                sawSnapshot = sawSnapshot || content.snapshot != nil
                var rebuilt = TextDocument(clientID: 9)
                if let snapshot = content.snapshot { try rebuilt.applyUpdate(snapshot) }
                for update in content.updates { try rebuilt.applyUpdate(update) }
                #expect(rebuilt.text == alice.doc.text)
                #expect(!rebuilt.hasPendingUpdates)
            }
            #expect(sawSnapshot)
        }
    }

    @Test func accessFollowsRoomMembershipAndAccessLists() async throws {
        try await withFixture { fixture in
            let service = fixture.service(publisher: RecordingPublisher())
            let roomDoc = try await service.createDocument(name: "r", access: .room(fixture.roomID), by: "bob")
            let listDoc = try await service.createDocument(name: "l", access: .users(["bob"]), by: "alice")
            await expectDocsError(.forbidden) { try await service.createDocument(name: "x", access: .room(fixture.roomID), by: "mallory") }
            let mallory = DocumentParticipant(userID: "mallory", connectionID: "m")
            await expectDocsError(.forbidden) { try await service.join(mallory, documentID: roomDoc.id) }
            await expectDocsError(.forbidden) {
                try await service.handleSync(mallory, documentID: listDoc.id, message: YSyncMessage.update([0, 0]).encode())
            }
            await expectDocsError(.notFound) { try await service.join(mallory, documentID: "nope") }
            #expect(try await service.canAccess(user: "alice", documentID: roomDoc.id))
            #expect(try await !service.canAccess(user: "mallory", documentID: listDoc.id))
            #expect(try await !service.canAccess(user: "alice", documentID: "nope"))

            _ = try await service.setAccessList(documentID: listDoc.id, users: ["alice", "mallory"], by: "bob")
            #expect(try await service.canAccess(user: "mallory", documentID: listDoc.id))
            #expect(try await !service.canAccess(user: "bob", documentID: listDoc.id))
            _ = try await fixture.chat.removeMember(app: DocsFixture.app, room: fixture.roomID, user: "bob")
            #expect(try await !service.canAccess(user: "bob", documentID: roomDoc.id))

            let opened = try await service.openOrCreateDocument(name: "r", room: fixture.roomID, by: "alice")
            #expect(opened.id == roomDoc.id)
            let created = try await service.openOrCreateDocument(name: "fresh", room: nil, by: "alice")
            #expect(created.accessList == ["alice"])
            try await service.deleteDocument(id: created.id, by: "alice")
            await expectDocsError(.notFound) { try await service.document(id: created.id, for: "alice") }
        }
    }

    @Test func idleDocumentsAreClosedAndReopenedFromTheStore() async throws {
        try await withFixture { fixture in
            let clock = ManualClock()
            let service = fixture.service(publisher: RecordingPublisher(), clock: clock.storeClock)
            let doc = try await service.createDocument(name: "n", access: .users([]), by: "alice")
            var alice = TestClient("alice", connection: "c1", clientID: 1)
            try await alice.connect(to: service, document: doc.id)
            try alice.doc.insert("persisted", at: 0)
            try await alice.push(to: service, document: doc.id)
            await service.sweep()
            #expect(service.openDocumentCount == 1, "a participant is still there")
            clock.advance(by: service.configuration.participantIdleTimeout)
            await service.sweep()
            #expect(service.openDocumentCount == 0)
            #expect(try await service.text(documentID: doc.id) == "persisted")
        }
    }
}
