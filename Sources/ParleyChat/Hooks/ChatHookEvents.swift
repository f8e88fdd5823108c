import ParleyWire

/// Which chat webhook events a call's realtime events stand for.
///
/// The hooks read the events each write publishes instead of each handler naming its hook
/// event again, so a new write path that publishes is covered without a second list to keep.
enum ChatHookEvents {
    /// One chat webhook event: its kind (`message.created`…) and data.
    struct Item: Sendable, Equatable {
        var kind: String
        var data: JSONValue
    }

    /// The hook events of one call's realtime events, in order.
    ///
    /// `room.added` on a user's channel is a room creation unless the same call also announced
    /// `member.joined` for that room (then it is the joining member's own notice): a creation
    /// becomes one `room.created` naming every member it started with.
    static func translate(_ events: [ChatEvent]) -> [Item] {
        let roomPrefix = ChatEvent.roomChannel("")
        var items: [Item] = []
        let joinedRooms = Set(events.filter { $0.name == "member.joined" }.compactMap { $0.data.objectValue?["room_id"]?.stringValue })
        var created: [String: (index: Int, members: [JSONValue])] = [:]
        for event in events {
            let object = event.data.objectValue
            if event.name == "room.added", !event.channel.hasPrefix(roomPrefix) {
                guard let roomID = object?["room_id"]?.stringValue, !joinedRooms.contains(roomID) else { continue }
                let member = event.channel.dropFirst(ChatEvent.userChannel("").count)
                if var entry = created[roomID] {
                    entry.members.append(.string(String(member)))
                    created[roomID] = entry
                } else {
                    created[roomID] = (items.count, [.string(String(member))])
                    items.append(Item(kind: "room.created", data: .object(["room_id": .string(roomID), "room": object?["room"] ?? .null])))
                }
                continue
            }
            guard event.channel.hasPrefix(roomPrefix) else { continue }
            switch event.name {
            case "message.created", "message.updated", "message.deleted", "room.updated", "room.deleted":
                items.append(Item(kind: event.name, data: event.data))
            case "reaction.changed":
                let action = object?["action"]?.stringValue ?? "added"
                items.append(Item(kind: "reaction." + action, data: event.data))
            case "member.joined":
                items.append(Item(kind: "member.added", data: event.data))
            case "member.left":
                items.append(Item(kind: "member.removed", data: event.data))
            default:
                continue
            }
        }
        for (_, entry) in created {
            guard case .object(var data) = items[entry.index].data else { continue }
            data["member_ids"] = .array(entry.members)
            items[entry.index].data = .object(data)
        }
        return items
    }
}
