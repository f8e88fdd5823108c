import ParleyStore
import ParleyWire

/// Realtime event data the API's values (ParleyModel) do not cover (see docs/openapi.json).
enum ChatJSON {
    static func reactionChange(_ change: ReactionChange, room: String) -> JSONValue {
        .object([
            "room_id": .string(room), "message_id": .int64(change.messageID), "seq": .int64(change.seq),
            "reactions": ReactionCount.json(change.reactions)
        ])
    }
}
