import ParleyStore
import ParleyWire

/// Dev mode only (`parley serve --dev`): sign in by name without an app backend.
extension ChatService {
    /// `POST /v1/dev/users {name, id?}`: the user, created if new (201) or as it was (200).
    func devCreateUser(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        let body = try JSONBody(call.request, limit: configuration.limits.jsonBodyBytes)
        let name = try body.string("name")
        guard !name.isEmpty else { throw ChatError(.validationFailed, "name must not be empty") }
        let id = try body.optionalString("id") ?? Self.slug(name)
        try Self.validateUserID(id)
        do {
            let user = try await store.createUser(app: context.appID, NewUser(id: id, name: name))
            return .json(user.json, status: .created)
        } catch let error as StoreError where error.code == .alreadyExists {
            let user = try await storeCall(notFound: .userNotFound) { try await store.user(app: context.appID, id: id) }
            return .json(user.json)
        } catch {
            throw ChatError.from(error, notFound: .userNotFound)
        }
    }

    /// `POST /v1/dev/token {user_id}`: a user token for an existing user.
    func devToken(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        let body = try JSONBody(call.request, limit: configuration.limits.jsonBodyBytes)
        let user = try body.string("user_id")
        _ = try await storeCall(notFound: .userNotFound) { try await store.user(app: context.appID, id: user) }
        let now = nowSeconds, lifetime = configuration.limits.devTokenSeconds
        let token = TokenMinter(appID: context.appID, secret: context.app.secret).mint(userID: user, now: now, lifetime: lifetime)
        return .json([
            "token": .string(token), "user_id": .string(user), "app_id": .string(context.appID),
            "expires_at": .int64(now + lifetime)
        ])
    }

    /// A user id from a display name: lowercase letters and digits, other runs as `-`.
    static func slug(_ name: String) -> String {
        var out: [UInt8] = []
        for byte in name.lowercased().utf8 {
            let keep = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            if keep { out.append(byte) } else if out.last != UInt8(ascii: "-") { out.append(UInt8(ascii: "-")) }
        }
        while out.last == UInt8(ascii: "-") { out.removeLast() }
        while out.first == UInt8(ascii: "-") { out.removeFirst() }
        let slug = String(decoding: out.prefix(64), as: UTF8.self)
        return slug.isEmpty ? "user-" + makeIdentifier().prefix(8) : slug
    }
}
