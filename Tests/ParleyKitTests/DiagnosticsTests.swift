import ParleyKitTesting
import ParleyText
import ParleyWireCore
import Synchronization
import Testing

@testable import ParleyKit

/// What the client cannot read reaches the diagnostics hook, naming the event and the field,
/// and is skipped; everything after it still works.
@Suite(.timeLimit(.minutes(1))) struct DiagnosticsTests {
    let clock = ManualClock()
    let server: InMemoryChatServer

    init() {
        server = InMemoryChatServer(clock: clock)
        server.addUser("alice")
        server.addUser("bob")
    }

    @Test func unreadableRoomEventsReachTheHookAndTheRoomGoesOn() async throws {
        let heard = Mutex<[ParleyDiagnostic]>([])
        let alice = try ParleyClient(
            configuration: ParleyConfiguration(serverURL: "http://fake", appKey: server.appKey) { diagnostic in
                heard.withLock { $0.append(diagnostic) }
            }, tokenProvider: StaticTokenProvider(server.token(for: "alice")), http: server, realtime: server, clock: clock, random: { 0.5 }
        )
        try await alice.connect()
        await wait(alice, for: .online)
        let roomID = try await alice.createRoom(name: "general", memberIDs: ["bob"]).id
        var events = try await alice.roomEvents(roomID, after: 0).makeAsyncIterator()
        await waitForSubscribers(server, "private-room-" + roomID)

        // A reaction event whose message id is text, and a message whose reaction has no count.
        server.publishRaw(event: "reaction.changed", data: #"{"room_id":"\#(roomID)","message_id":"seven","reactions":[]}"#, in: roomID)
        var broken = ChatMessage(id: 99, roomID: roomID, seq: 1, senderID: "bob", parts: [.text("broken")], createdAt: 0).json
        broken = JSONValue.object([
            "room_id": .string(roomID), "seq": .int(1),
            "message": {
                var object = broken.objectValue!
                object["reactions"] = .array([.object(["emoji": .string("👍")])])
                return .object(object)
            }()
        ])
        server.publishRaw(event: "message.created", data: JSONWriter.string(broken), in: roomID)
        server.publishRaw(event: "typing", data: "not json at all", in: roomID)

        // The hook hears of each as its frame is handled (history reads may race the frames).
        while heard.withLock({ $0 }).count < 3, !Task.isCancelled { await Task.yield() }
        server.post("hello", as: "bob", in: roomID)
        let seen = await read(&events) { !messages($0).isEmpty }
        #expect(messages(seen).map(\.text) == ["hello"], "the unreadable message was skipped, the next one arrived")
        #expect(!seen.contains { if case .reactions = $0 { true } else { false } })

        let diagnostics = heard.withLock { $0 }.filter { $0.kind == .decoding }
        #expect(diagnostics.count == 3, "\(heard.withLock { $0 })")
        #expect(diagnostics.allSatisfy { $0.error.code == .decoding })
        #expect(
            diagnostics.contains {
                $0.roomID == roomID && $0.error.message.contains("reaction.changed") && $0.error.message.contains("message_id")
            })
        #expect(
            diagnostics.contains {
                $0.roomID == roomID && $0.error.message.contains("message.created") && $0.error.message.contains("count")
            })
        #expect(diagnostics.contains { $0.error.message.contains("typing") })
        await alice.close()
    }

    @Test func malformedDocumentMessagesAndContentReachTheHook() async throws {
        let heard = Mutex<[ParleyDiagnostic]>([])
        let transport = ScriptedTransport()
        let session = DocumentSession(
            url: "ws://scripted/v1/docs/d/ws", tokenProvider: StaticTokenProvider("t"),
            presence: DocumentPresence(name: "alice"), transport: transport, clientID: 1
        ) { diagnostic in
            heard.withLock { $0.append(diagnostic) }
        }
        await session.start()
        await transport.waitForConnection()
        transport.push([0xff, 0xff, 0xff])
        _ = await waitFor(session) { $0.rejectedMessages == 1 }
        #expect(heard.withLock { $0 }.contains { $0.kind == .decoding && $0.error.message.contains("ws://scripted/v1/docs/d/ws") })

        // JSON content (as old Yjs clients write it) that does not parse keeps its place as null:
        // one struct of client 9 at clock 0, ContentJSON (2) in the root "list", no deletions.
        let json: [UInt8] =
            [1, 1, 9, 0, 2, 1, 4] + Array("list".utf8) + [2, 8] + Array(#"{"ok":1}"#.utf8) + [9] + Array("{not json".utf8) + [0]
        transport.push(YSyncMessage.update(json).encode())
        _ = await waitFor(session) { $0.version > 0 }
        let list = await session.array(named: "list")
        #expect(list == [.object(["ok": .integer(1)]), .null], "\(list)")
        #expect(heard.withLock { $0 }.contains { $0.kind == .decoding && $0.error.message.contains("{not json") })
        await session.close()
    }
}
