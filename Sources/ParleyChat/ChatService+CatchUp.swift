import ParleyChannels
import ParleyStore
import ParleyWire

/// Chat across a cluster bus outage: when the bus comes back, this node reads from the store
/// the messages other nodes sent while it was away, for every room with subscribers here,
/// and delivers them to its own subscribers only, each once and in seq order (see
/// ARCHITECTURE.md, "How nodes share one hub").
extension ChatService {
    /// How far before the bus was noticed lost a room this node had heard nothing of is read
    /// back: a publish may have been under way when Redis went away.
    static let catchUpMargin: Int64 = 2_000
    /// The most messages read back per room page.
    static let catchUpPage = 200

    /// Watches `hub`'s bus and the `message.created` events it brings.
    func startCatchUp(_ hub: ClusterChannelHub) {
        hub.setEventFilter { [weak self] app, event in self?.admitFromBus(app: app, event) ?? true }
        hub.addConnectionHandler { [weak self, weak hub] connected in
            guard let self, let hub else { return }
            self.busConnectionChanged(connected, hub: hub)
        }
    }

    /// Records the `message.created` events this node publishes (cluster only).
    func recordPublished(app: String, _ events: [ChatEvent]) {
        guard cluster.withLock({ $0 != nil }) else { return }
        for event in events where event.name == "message.created" {
            guard let room = Self.room(ofChannel: event.channel), let seq = event.data.objectValue?["seq"]?.intValue else { continue }
            catchUp.withLock { $0.published(ChatCatchUp.Room(app: app, room: room), seq: Int64(seq)) }
        }
    }

    private func admitFromBus(app: String, _ event: ClusterEvent) -> Bool {
        guard event.event == "message.created", let room = Self.room(ofChannel: event.channel), let seq = Self.seq(inFrame: event.frame)
        else { return true }
        let held = HubEvent(channel: event.channel, event: event.event, data: .null, frame: event.frame, excluding: event.excluding)
        return catchUp.withLock { $0.received(ChatCatchUp.Room(app: app, room: room), seq: seq, event: held) }
    }

    private func busConnectionChanged(_ connected: Bool, hub: ClusterChannelHub) {
        let now = clock.now()
        guard connected else {
            catchUp.withLock { if $0.lostAt == nil { $0.lostAt = now } }
            return
        }
        guard
            let lostAt = catchUp.withLock({ state in
                defer { state.lostAt = nil }; return state.lostAt
            })
        else { return }
        // Nodes whose bus stayed up missed what this one published meanwhile: they catch up too.
        announce(.busRejoined(since: lostAt))
        Task { await self.catchUp(hub: hub, since: lostAt - Self.catchUpMargin) }
    }

    /// Delivers to this node's subscribers what every room with subscribers here missed.
    func catchUp(hub: ClusterChannelHub, since: Int64) async {
        var rooms: [ChatCatchUp.Room] = []
        for app in apps.apps {
            for channel in hub.local.occupiedChannels(app: app, prefix: ChatEvent.roomChannel("")) {
                if let room = Self.room(ofChannel: channel) { rooms.append(ChatCatchUp.Room(app: app.id, room: room)) }
            }
        }
        let floors = catchUp.withLock { state in
            state.retain(Set(rooms))
            return state.begin(rooms)
        }
        for room in rooms {
            let read = await missedMessages(room, after: floors[room] ?? nil, since: since)
            let events = catchUp.withLock { $0.finish(room, read: read) }
            guard !events.isEmpty, let app = apps.app(id: room.app) else { continue }
            hub.local.publish(app: app, events: events)
        }
    }

    /// The room's messages after `floor`, or, for a room this node delivered nothing of, its
    /// latest ones sent since `since`; as `message.created` events, oldest first.
    private func missedMessages(_ room: ChatCatchUp.Room, after floor: Int64?, since: Int64) async -> [ChatCatchUp.Delivery] {
        var messages: [Message] = []
        if let floor {
            var after = floor
            while true {
                guard
                    let page = try? await store.history(
                        app: room.app, room: room.room, HistoryQuery(after: after, limit: Self.catchUpPage))
                else { break }
                messages += page
                guard page.count == Self.catchUpPage, let last = page.last else { break }
                after = last.seq
            }
        } else {
            let page = (try? await store.history(app: room.app, room: room.room, HistoryQuery(limit: Self.catchUpPage))) ?? []
            messages = page.filter { $0.createdAt >= since }
        }
        return messages.map { message in
            let data = messageEventData(message)
            let channel = ChatEvent.roomChannel(room.room)
            let frame = PusherFrame.channelEvent(event: "message.created", channel: channel, encodedData: JSONWriter.serialize(data))
            return ChatCatchUp.Delivery(
                seq: message.seq, event: HubEvent(channel: channel, event: "message.created", data: data, frame: frame, excluding: nil))
        }
    }

    private static func room(ofChannel channel: String) -> String? {
        let prefix = ChatEvent.roomChannel("")
        guard channel.hasPrefix(prefix), channel.count > prefix.count else { return nil }
        return String(channel.dropFirst(prefix.count))
    }

    /// The `seq` inside a `message.created` frame (its data is an object, or the same JSON as
    /// a string as Pusher's own frames carry it).
    static func seq(inFrame frame: [UInt8]) -> Int64? {
        guard var data = (try? JSONParser.parse(frame))?.objectValue?["data"] else { return nil }
        if let text = data.stringValue, let parsed = try? JSONParser.parse(Array(text.utf8)) { data = parsed }
        return data.objectValue?["seq"]?.intValue.map(Int64.init)
    }
}
