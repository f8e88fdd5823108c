import ParleyKit

/// The UI-free state of the room list: rooms by activity with unread badges, last-message
/// previews and the direct partner's presence. Observe ``snapshots()``.
public actor RoomListModel {
    private let client: ParleyClient
    private let hub = Broadcaster<RoomListSnapshot>(replayLatest: true)
    private var me = ""
    private var summaries: [String: RoomSummary] = [:]
    private var names: [String: String] = [:]
    private var online: [String: Bool] = [:]
    private var connection: ConnectionState = .idle
    private var activeRoom: String?
    private var notice: String?
    private var tasks: [Task<Void, Never>] = []

    /// Creates the model; call ``start()`` next.
    public init(client: ParleyClient) {
        self.client = client
    }

    /// The snapshot now and after every change.
    public nonisolated func snapshots() -> AsyncStream<RoomListSnapshot> { hub.stream() }

    /// Shows the cached rooms at once, then the server's list, then follows changes.
    public func start() async {
        do {
            me = try await client.userID()
            for summary in try await client.cachedRooms() { summaries[summary.id] = summary }
        } catch {
            notice = "Could not read the saved rooms: \(error.message)"
        }
        publish()
        let events = client.userEvents()
        tasks.append(Task { for await event in events { await self.apply(event) } })
        let states = client.connectionStates()
        tasks.append(Task { for await state in states { self.connectionChanged(state) } })
        await refresh()
    }

    /// Reloads the list from the server.
    public func refresh() async {
        do {
            let rooms = try await client.myRooms()
            summaries = Dictionary(uniqueKeysWithValues: rooms.map { ($0.id, $0) })
            try await client.observe(rooms: rooms.map(\.id))
            notice = nil
        } catch {
            notice = "Could not load the rooms: \(error.message)"
            publish()
            return
        }
        await resolvePartners()
        publish()
    }

    /// Stops following changes.
    public func stop() {
        for task in tasks { task.cancel() }
        tasks = []
        hub.finish()
    }

    /// The room on screen: its new messages don't raise its badge.
    public func setActiveRoom(_ roomID: String?) {
        activeRoom = roomID
        if let roomID {
            summaries[roomID]?.unreadCount = 0
            summaries[roomID]?.unreadMentions = 0
        }
        publish()
    }

    private func apply(_ event: UserEvent) async {
        switch event {
        case .roomAdded(let room):
            if summaries[room.id] == nil { summaries[room.id] = RoomSummary(room: room) }
            await resolvePartners()
        case .roomRemoved(let roomID):
            summaries[roomID] = nil
        case .roomActivity(let message):
            guard var summary = summaries[message.roomID] else {
                await refresh()
                return
            }
            guard message.seq > (summary.lastMessage?.seq ?? 0) else { return }
            summary.lastMessage = message
            summary.room.lastSeq = message.seq
            summary.room.lastActivityAt = max(summary.room.lastActivityAt, message.createdAt)
            // A thread-only reply is not unread in the room (it is in its thread).
            if message.senderID != me, message.roomID != activeRoom, message.seq > summary.readSeq, message.showInRoom {
                summary.unreadCount += 1
            }
            summaries[message.roomID] = summary
        case .roomRead(let roomID, let readSeq, let unread, let mentions):
            summaries[roomID]?.readSeq = readSeq
            summaries[roomID]?.unreadCount = unread
            summaries[roomID]?.unreadMentions = mentions
        case .mentioned(let message):
            if message.roomID != activeRoom, let summary = summaries[message.roomID], message.seq > summary.readSeq {
                summaries[message.roomID]?.unreadMentions += 1
            }
        case .presence(let status):
            online[status.userID] = status.isOnline
        }
        publish()
    }

    private func connectionChanged(_ state: ConnectionState) {
        connection = state
        publish()
    }

    private func resolvePartners() async {
        for summary in summaries.values {
            guard let partner = summary.room.directPartner(of: me) else { continue }
            // A partner whose details cannot be read now shows by id until the next refresh.
            do {
                if names[partner] == nil { names[partner] = try await client.user(partner).name }
                if online[partner] == nil { online[partner] = try await client.presence(of: partner).isOnline }
            } catch {
                notice = "Could not read \(partner): \(error.message)"
            }
        }
    }

    private func publish() { hub.send(snapshot()) }

    /// The current snapshot.
    public func snapshot() -> RoomListSnapshot {
        let rows = summaries.values.map(row).sorted { ($0.lastActivityAt, $1.id) > ($1.lastActivityAt, $0.id) }
        return RoomListSnapshot(rows: rows, banner: ConversationModel.banner(connection), connection: connection, notice: notice)
    }

    private func row(_ summary: RoomSummary) -> RoomRow {
        let partner = summary.room.directPartner(of: me)
        let title = summary.room.name.flatMap { $0.isEmpty ? nil : $0 } ?? partner.map { names[$0] ?? $0 } ?? summary.id
        return RoomRow(
            id: summary.id, title: title, kind: summary.room.kind, unreadCount: summary.unreadCount,
            unreadMentions: summary.unreadMentions,
            preview: summary.lastMessage.map(Self.preview), lastActivityAt: summary.room.lastActivityAt,
            partnerID: partner, partnerOnline: partner.flatMap { online[$0] })
    }

    static func preview(_ message: ChatMessage) -> String {
        if message.isDeleted { return "Message deleted" }
        let text = message.text
        if !text.isEmpty { return text.count > 80 ? String(text.prefix(79)) + "…" : text }
        if let file = message.parts.lazy.compactMap(\.file).first { return file.name }
        return message.parts.contains { if case .attachment = $0 { true } else { false } } ? "Attachment" : ""
    }
}
