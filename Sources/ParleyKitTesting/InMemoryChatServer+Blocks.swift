import ParleyKit
import ParleyWireCore

/// User blocks in the in-memory server (docs/moderation.md): `GET /v1/me/blocks`,
/// `PUT`/`DELETE /v1/me/blocks/{user_id}`; history leaves blocked users' messages out for the
/// blocker, realtime events go to everyone as on the real server.
extension InMemoryChatServer {
    static func blocks(_ state: inout State, _ me: String, _ method: String, _ s: [String]) throws -> Reply {
        switch (method, s.count) {
        case ("GET", 2):
            let ids = (state.blocks[me] ?? []).sorted().map(JSONValue.string)
            return (200, .object(["user_ids": .array(ids)]), [])
        case ("PUT", 3):
            guard state.users[s[2]] != nil else { throw Failure(status: 404, code: "user_not_found") }
            guard s[2] != me else { throw Failure(status: 422, code: "validation_failed") }
            let added = state.blocks[me, default: []].insert(s[2]).inserted
            return (added ? 201 : 200, .object(["user_id": .string(s[2]), "blocked": .bool(true)]), [])
        case ("DELETE", 3):
            state.blocks[me]?.remove(s[2])
            return (204, nil, [])
        default:
            throw Failure(status: 404, code: "not_found")
        }
    }
}
