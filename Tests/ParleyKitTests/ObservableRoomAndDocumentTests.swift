import Observation
import ParleyUI
import Testing

@testable import ParleyKit

/// The observable state of the connection, a room's people and a document (ParleyUI's
/// ConnectionStatusState, RoomState and DocumentState) against a real server in this process.
@Suite(.serialized) @MainActor struct ObservableRoomAndDocumentTests {
    @Test func theConnectionStateShowsOnlineThenTheRetryDelay() async throws {
        let server = try await LoopbackServer.start()
        let alice = try await server.client("Alice")
        let status = ConnectionStatusState(client: alice)
        await status.start()
        #expect(status.state == .idle && status.retryInSeconds == nil)

        let wentOnline = observe { _ = status.state }
        try await alice.connect()
        await eventually("online") { status.isOnline }
        #expect(wentOnline.hasFired)

        let retrying = observe { _ = status.retryInSeconds }
        await server.stop()
        await eventually("offline, retrying") { status.retryInSeconds != nil }
        #expect(retrying.hasFired)
        // The loopback client retries after 20 to 200 ms: a banner shows "1 s", never "0 s".
        #expect(status.retryInSeconds == 1 && (status.attempt ?? 0) >= 1)
        status.stop()
        await alice.close()
    }

    @Test func aRoomShowsItsMembersWhoTypesAndWhoHasRead() async throws {
        let server = try await LoopbackServer.start()
        let alice = try await server.client("Alice"), bob = try await server.client("Bob")
        let aliceID = try await alice.userID(), bobID = try await bob.userID()
        let room = try await alice.createRoom(name: "people", memberIDs: [bobID])
        _ = try await watching(bob, alice, room.id)

        let people = RoomState(client: bob, roomID: room.id)
        await people.start()
        #expect(people.room?.name == "people")
        #expect(people.members.map(\.userID) == [aliceID, bobID].sorted())
        #expect(people.members.first { $0.userID == aliceID }?.role == .admin)

        let typingChanged = observe { _ = people.typingUserIDs }
        try await alice.userIsTyping(in: room.id)
        await eventually("Bob sees Alice typing") { people.typingUserIDs == [aliceID] }
        #expect(typingChanged.hasFired)
        try await alice.stopTyping(in: room.id)
        await eventually("and stop") { people.typingUserIDs.isEmpty }

        let membersChanged = observe { _ = people.members }
        try await alice.setRole(.admin, of: bobID, in: room.id)
        await eventually("Bob's new role shows") { people.members.first { $0.userID == bobID }?.role == .admin }
        #expect(membersChanged.hasFired)

        let reply = try #require(try await bob.send(text: "seen?", to: room.id).message)
        #expect(people.readers(of: reply.seq, except: bobID).isEmpty)
        let readChanged = observe { _ = people.readSeqs }
        try await alice.markAllRead()
        await eventually("Alice's read mark shows") { people.readers(of: reply.seq, except: bobID) == [aliceID] }
        #expect(readChanged.hasFired)

        people.stop()
        await alice.close()
        await bob.close()
        await server.stop()
    }

    @Test func aDocumentShowsTextsMapsAndArraysAsTheyChange() async throws {
        let server = try await LoopbackServer.start()
        let alice = try await server.client("Alice"), bob = try await server.client("Bob")
        let room = try await alice.createRoom(name: "doc", memberIDs: [try await bob.userID()])
        let mine = try await alice.openDocument(room: room.id, name: "plan")
        let theirs = try await bob.openDocument(room: room.id, name: "plan")
        try await mine.waitUntilSynced()
        try await theirs.waitUntilSynced()
        try await mine.insert("draft", at: 0, inText: "title")
        try await mine.waitUntilSynced()

        let document = DocumentState(session: theirs, texts: ["text", "title"], maps: ["meta"], arrays: ["steps"])
        await document.start()
        await eventually("the title arrives") { document.texts["title"] == "draft" }
        #expect(document.texts["text"] == "" && document.maps["meta"] == [:] && document.arrays["steps"] == [])

        let textsChanged = observe { _ = document.texts }
        let mapsChanged = observe { _ = document.maps }
        let arraysChanged = observe { _ = document.arrays }
        try await mine.insert("👍🏽 ", atUTF16: 0)
        try await mine.setValue(.string("alice"), forKey: "owner", inMap: "meta")
        try await mine.append([.string("write"), .integer(2)], toArray: "steps")
        await eventually("Bob's state shows Alice's edits") {
            document.texts["text"] == "👍🏽 " && document.maps["meta"] == ["owner": .string("alice")]
                && document.arrays["steps"] == [.string("write"), .integer(2)]
        }
        #expect(textsChanged.hasFired && mapsChanged.hasFired && arraysChanged.hasFired)
        #expect(document.connection == .synced)
        await eventually("Alice is among the peers") { !document.peers.isEmpty }

        // Local edits through the session show too.
        try await document.session.insert(" v2", at: 5, inText: "title")
        await eventually("a local edit shows") { document.texts["title"] == "draft v2" }

        document.stop()
        await mine.close()
        await theirs.close()
        await alice.close()
        await bob.close()
        await server.stop()
    }
}
