import ParleyKit

/// The UI-free state of one thread: its root and replies, kept current from the room's live
/// events (new replies, edits, deletes, reactions, the root's reply count). Observe
/// ``snapshots()``; ``send(_:alsoInRoom:)`` replies in the thread.
public actor ThreadModel {
    private let client: ParleyClient
    private let roomID: String
    private let rootID: Int64
    private let pageSize: Int
    private let hub = Broadcaster<ThreadSnapshot>(replayLatest: true)
    private var me = ""
    private var root: ChatMessage?
    private var replies: [Int64: ChatMessage] = [:]
    private var names: [String: String] = [:]
    /// Users the signed-in user blocks (read at start): their replies are not shown.
    private var blocked: Set<String> = []
    private var hasOlder = false
    private var notice: String?
    private var follower: Task<Void, Never>?

    /// The thread of `rootID` (a reply's id opens its root's thread once loaded) in `roomID`;
    /// call ``start()`` next. `pageSize` replies are read per page.
    public init(client: ParleyClient, roomID: String, rootID: Int64, pageSize: Int = 50) {
        self.client = client
        self.roomID = roomID
        self.rootID = rootID
        self.pageSize = pageSize
    }

    /// The snapshot now and after every change.
    public nonisolated func snapshots() -> AsyncStream<ThreadSnapshot> { hub.stream() }

    /// Follows the room, then reads the root and the latest page of replies; returns once
    /// they are in the snapshot.
    public func start() async {
        guard follower == nil else { return }
        // Following first: a reply sent while the page is read is not missed (rows merge by seq).
        do throws(ParleyError) {
            me = try await client.userID()
            blocked = (try? await client.blockedUsers()) ?? []
            let events = try await client.roomEvents(roomID)
            follower = Task { for await event in events { await self.apply(event) } }
            var message = try await client.message(rootID, in: roomID)
            if let parent = message.parentID { message = try await client.message(parent, in: roomID) }
            root = message
            let page = try await client.replies(to: message.id, in: roomID, limit: pageSize)
            for reply in page.messages { replies[reply.seq] = reply }
            hasOlder = page.hasMore
        } catch {
            notice = error.message
        }
        await resolveNames()
        publish()
    }

    /// Stops following the room.
    public func stop() {
        follower?.cancel()
        follower = nil
        hub.finish()
    }

    /// Replies in the thread (`alsoInRoom`: shown in the room's history too); the reply is in
    /// the snapshot when this returns, or ``ThreadSnapshot/notice`` says why it was refused.
    public func send(_ text: String, alsoInRoom: Bool = false) async {
        guard !text.allSatisfy(\.isWhitespace) else { return }
        do {
            let reply = try await client.reply([.text(text)], to: root?.id ?? rootID, in: roomID, alsoInRoom: alsoInRoom)
            replies[reply.seq] = reply
            notice = nil
        } catch {
            notice = "Not sent: \(error.message)"
        }
        await resolveNames()
        publish()
    }

    /// Loads the page of replies before the oldest one shown.
    public func loadOlder() async {
        guard let oldest = replies.keys.min(), let root else { return }
        do {
            let page = try await client.replies(to: root.id, in: roomID, before: oldest, limit: pageSize)
            for reply in page.messages where replies[reply.seq] == nil { replies[reply.seq] = reply }
            hasOlder = page.hasMore
            await resolveNames()
        } catch {
            notice = error.message
        }
        publish()
    }

    private func apply(_ event: RoomEvent) async {
        let threadID = root?.id ?? rootID
        switch event {
        case .message(let message) where message.parentID == threadID:
            replies[message.seq] = message
            if names[message.senderID] == nil { await resolveNames() }
        case .messageUpdated(let message), .messageDeleted(let message):
            if message.id == root?.id {
                root = message
            } else if message.parentID == threadID {
                replies[message.seq] = message
            }
        case .reactions(let id, let counts):
            if id == root?.id { root?.reactions = counts }
            if let entry = replies.first(where: { $0.value.id == id }) { replies[entry.key]?.reactions = counts }
        case .threadUpdated(let activity):
            if let current = root { root = activity.applied(to: current) }
        default:
            return
        }
        publish()
    }

    private func resolveNames() async {
        let all = [root].compactMap { $0 } + Array(replies.values)
        let people = all.flatMap { message in [message.senderID] + message.lastReplierIDs + [message.quoted?.senderID].compactMap { $0 } }
        for id in Set(people).subtracting(names.keys) {
            // Someone whose profile cannot be read now shows by id.
            names[id] = (try? await client.user(id).name) ?? id
        }
    }

    private func publish() { hub.send(snapshot()) }

    /// The current snapshot.
    public func snapshot() -> ThreadSnapshot {
        ThreadSnapshot(
            roomID: roomID, rootID: root?.id ?? rootID,
            root: root.map { MessageRow(message: $0, me: me, names: names, cursors: [:]) },
            replies: replies.values.filter { !blocked.contains($0.senderID) }.sorted { $0.seq < $1.seq }.map {
                MessageRow(message: $0, me: me, names: names, cursors: [:])
            },
            hasOlder: hasOlder, notice: notice)
    }
}
