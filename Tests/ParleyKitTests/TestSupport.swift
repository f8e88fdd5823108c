import ParleyKitTesting

@testable import ParleyKit

/// A client of the in-memory server signed in as `user`.
func makeClient(_ server: InMemoryChatServer, _ user: String, clock: ManualClock, storePath: String? = nil) throws -> ParleyClient {
    server.addUser(user)
    return try ParleyClient(
        configuration: ParleyConfiguration(serverURL: "http://fake", appKey: server.appKey, storePath: storePath),
        tokenProvider: StaticTokenProvider(server.token(for: user)), http: server, realtime: server,
        clock: clock, random: { 0.5 })
}

/// Reads a stream until `done` holds for everything read so far; returns what was read.
func read<Element: Sendable>(_ iterator: inout AsyncStream<Element>.Iterator, until done: ([Element]) -> Bool) async -> [Element] {
    var seen: [Element] = []
    while !done(seen), let next = await iterator.next() { seen.append(next) }
    return seen
}

/// Waits until the client reports `state`.
func wait(_ client: ParleyClient, for state: ConnectionState) async {
    for await current in client.connectionStates() where current == state { return }
}

/// Waits until the server has `count` subscribers on a channel (subscribing is asynchronous).
func waitForSubscribers(_ server: InMemoryChatServer, _ channel: String, _ count: Int = 1) async {
    while server.subscriberCount(channel) < count { await Task.yield() }
}

/// Waits until the client's outbox is empty: the answer to a send is handled after the server
/// has already published the message, so seeing the message does not mean the entry is gone.
func waitForEmptyOutbox(_ client: ParleyClient) async throws {
    while try await !client.outbox().isEmpty { await Task.yield() }
}

/// The new messages among room events.
func messages(_ events: [RoomEvent]) -> [ChatMessage] {
    events.compactMap { if case .message(let message) = $0 { message } else { nil } }
}

func temporaryPath(_ name: String) -> String {
    "/tmp/parleykit-test-\(name)-\(UInt64.random(in: 0...UInt64.max)).sqlite"
}
