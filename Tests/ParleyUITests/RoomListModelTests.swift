import ParleyKit
import ParleyKitTesting
import Testing

@testable import ParleyUI

@Test func roomListOrdersByActivityWithBadgesPreviewsAndPresence() async throws {
    let clock = ManualClock()
    let server = InMemoryChatServer(clock: clock)
    let alice = try makeClient(server, "alice", clock: clock)
    let bob = try makeClient(server, "bob", clock: clock)
    let general = try await alice.createRoom(name: "general", memberIDs: ["bob"]).id
    clock.advance(by: .seconds(1))
    let direct = try await alice.directRoom(with: "bob").id
    try await alice.connect()
    let model = RoomListModel(client: alice)
    await model.start()
    let initial = await model.snapshot()
    #expect(initial.rows.map(\.id) == [direct, general])
    #expect(initial.rows.first?.title == "Bob")
    #expect(initial.rows.first?.partnerOnline == false)

    // Bob comes online and writes in general: it moves up with a badge and a preview.
    while server.subscriberCount("private-room-" + direct) < 1 || server.subscriberCount("#server-to-user-alice") < 1 {
        await Task.yield()
    }
    try await bob.connect()
    let online = await first(model.snapshots()) { $0.rows.first { $0.id == direct }?.partnerOnline == true }
    #expect(online != nil)
    clock.advance(by: .seconds(1))
    server.post("hello all", as: "bob", in: general)
    clock.advance(by: .seconds(1))
    server.post("second", as: "bob", in: general)
    let active = await first(model.snapshots()) { $0.rows.first?.unreadCount == 2 }
    #expect(active?.rows.map(\.id) == [general, direct])
    #expect(active?.rows.first?.preview == "second")
    #expect(active?.totalUnread == 2)

    // Reading on any device clears the badge.
    let sleepers = clock.sleeperCount
    try await alice.markRead(general, upTo: 2)
    while clock.sleeperCount <= sleepers { await Task.yield() }
    clock.advance(by: .seconds(1))
    let read = await first(model.snapshots()) { $0.rows.first?.unreadCount == 0 }
    #expect(read?.totalUnread == 0)

    // Bob leaves: his presence goes offline.
    await bob.disconnect()
    let offline = await first(model.snapshots()) { $0.rows.first { $0.id == direct }?.partnerOnline == false }
    #expect(offline != nil)
}

@Test func roomListShowsTheCacheAndAnOfflineBanner() async throws {
    let clock = ManualClock()
    let server = InMemoryChatServer(clock: clock)
    let alice = try makeClient(server, "alice", clock: clock)
    _ = try await alice.createRoom(name: "general")
    _ = try await alice.myRooms()
    server.setReachable(false)
    try await alice.connect()
    let model = RoomListModel(client: alice)
    await model.start()
    let snapshot = await first(model.snapshots()) { $0.banner?.hasPrefix("Reconnecting") == true }
    #expect(snapshot?.rows.map(\.title) == ["general"])
}
