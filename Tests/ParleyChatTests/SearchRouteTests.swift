import ParleyWire
import Testing

@testable import ParleyChat

@Suite("Search routes")
struct SearchRouteTests {
    let a = ChatHarness.appA

    func ids(_ reply: Reply) -> [Int] {
        reply["results"]?.arrayValue?.compactMap { $0["message"]?["id"]?.intValue } ?? []
    }

    @Test(arguments: ChatEngine.available)
    func theThreeRoutesSearchTheCallersRooms(engine: ChatEngine) async throws {
        try await ChatHarness.with(engine) { h in
            await h.createUsers("alice", "bob", "eve")
            let shared = await h.createRoom("alice", members: ["bob"])
            let own = await h.createRoom("eve")
            let sent = try #require(await h.send("alice", room: shared, "Grüße vom Café")["id"]?.intValue)
            let hidden = try #require(await h.send("eve", room: own, "cafe for eve")["id"]?.intValue)

            let all = await h.call(.GET, "/v1/search?q=cafe", as: .user("bob", app: a))
            #expect(all.status == 200 && ids(all) == [sent] && all["next_offset"] == .null)
            let highlight: JSONValue = .object(["part": .int(0), "start": .int(10), "end": .int(14)])
            #expect(all["results"]?.arrayValue?.first?["highlights"] == .array([highlight]), "Café after 10 UTF-16 units")
            #expect(ids(await h.call(.GET, "/v1/search?q=cafe", as: .user("eve", app: a))) == [hidden])
            for path in ["/v1/rooms/\(shared)/search?q=vom%20caf", "/v1/rooms/\(shared)/messages?q=vom%20caf"] {
                #expect(ids(await h.call(.GET, path, as: .user("bob", app: a))) == [sent], "\(path)")
                #expect(await h.call(.GET, path, as: .user("eve", app: a)).errorCode == "not_member", "\(path)")
            }
            #expect(await h.call(.GET, "/v1/search?q=cafe&room=\(shared)", as: .user("eve", app: a)).errorCode == "not_member")
            #expect(await h.call(.GET, "/v1/search?q=cafe&room=nowhere", as: .user("eve", app: a)).errorCode == "room_not_found")
            #expect(await h.call(.GET, "/v1/search?q=cafe", as: .app(a)).errorCode == "user_token_required")
            #expect(await h.call(.GET, "/v1/search?q=cafe").status == 401)
            #expect(await h.call(.GET, "/v1/search?q=%3F%21", as: .user("bob", app: a)).errorCode == "invalid_parameter")
            // Without q the messages route is history.
            let history = await h.call(.GET, "/v1/rooms/\(shared)/messages", as: .user("bob", app: a))
            #expect(history["messages"]?.arrayValue?.count == 1 && history["results"] == nil)
        }
    }
}
