import ParleyStore
import ParleyWire

/// Channel authorisation for the chat's own channels, and the Pusher auth endpoints.
extension ChatService {
    /// The prefix of a room's channel.
    static let roomChannelPrefix = "private-room-"

    /// Whether `user` of `app` may subscribe to `channel`: `private-room-{id}` for members only,
    /// `#server-to-user-{id}` for that user only; other channels are not the chat's business.
    public func authorizeChannel(app: String, user: String, channel: String) async -> ChannelAuthorization {
        if channel.hasPrefix(PusherChannel.serverToUserPrefix) {
            let owner = channel.dropFirst(PusherChannel.serverToUserPrefix.count)
            return owner == user ? .allowed : .denied(ChatError(.channelForbidden, "that is another user's channel"))
        }
        guard channel.hasPrefix(Self.roomChannelPrefix) else {
            return await configuration.otherChannels?(app, user, channel) ?? .notChatChannel
        }
        let room = String(channel.dropFirst(Self.roomChannelPrefix.count))
        guard !room.isEmpty else { return .denied(ChatError(.roomNotFound, "no room is named")) }
        do {
            let membership = try await store.membership(app: app, room: room, user: user)
            return membership != nil ? .allowed : .denied(ChatError(.notMember, "you are not a member of room \(room)"))
        } catch {
            return .denied(ChatError.from(error, notFound: .roomNotFound))
        }
    }

    /// `POST /v1/channels/auth`: the Pusher `auth` signature for a chat channel the user may join.
    func channelAuth(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        let user = try context.requireUser()
        let fields = try authFields(call.request)
        guard let socketID = fields["socket_id"], PusherSocketID.isValid(socketID) else {
            throw ChatError(.invalidRequest, "socket_id must be a Pusher socket id (digits.digits)")
        }
        guard let channel = fields["channel_name"], PusherChannel(channel) != nil else {
            throw ChatError(.invalidRequest, "channel_name must be a valid channel name")
        }
        try await grantChannel(app: context.appID, user: user, socketID: socketID, channel: channel)
        if grants.guards(channel), !grants.isLocal(app: context.appID, socket: socketID) {
            // The socket is on another node (a balancer sent this request here): that node
            // records the grant after checking the membership itself.
            announce(.channelGranted(app: context.appID, channel: channel, socket: socketID, user: user))
        }
        let auth = PusherSignature.channelAuth(key: context.app.key, secret: context.app.secret, socketID: socketID, channel: channel)
        return .json(["auth": .string(auth)])
    }

    /// Decides a channel for the socket and, on a guarded channel, records the grant the hub's
    /// gate asks for: begun before the membership is read and confirmed after, so a membership
    /// that ends in between is seen (the confirmation fails and the check runs again).
    func grantChannel(app: String, user: String, socketID: String, channel: String) async throws(ChatError) {
        let guarded = grants.guards(channel)
        for _ in 0..<3 {
            let ticket = guarded ? grants.begin(app: app, channel: channel, socket: socketID, user: user) : nil
            let room: String?
            switch await authorizeChannel(app: app, user: user, channel: channel) {
            case .allowed:
                room = channel.hasPrefix(Self.roomChannelPrefix) ? String(channel.dropFirst(Self.roomChannelPrefix.count)) : nil
            case .allowedWhileMember(let owner):
                room = owner
            case .denied(let error):
                if let ticket { grants.abandon(ticket) }
                throw error
            case .notChatChannel:
                if let ticket { grants.abandon(ticket) }
                throw ChatError(.channelForbidden, "Parley signs only its own channels (private-room-{id}, private-doc-{id})")
            }
            guard let ticket else { return }
            if grants.confirm(ticket, room: room) { return }
        }
        throw ChatError(.unavailable, "memberships kept changing while \(channel) was authorised; retry")
    }

    /// `POST /v1/channels/user-auth`: the Pusher sign-in signature for the token's user.
    func userAuth(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        let user = try context.requireUser()
        let fields = try authFields(call.request)
        guard let socketID = fields["socket_id"], PusherSocketID.isValid(socketID) else {
            throw ChatError(.invalidRequest, "socket_id must be a Pusher socket id (digits.digits)")
        }
        let userData = JSONWriter.string(.object(["id": .string(user)]))
        let auth = PusherSignature.userAuth(key: context.app.key, secret: context.app.secret, socketID: socketID, userData: userData)
        return .json(["auth": .string(auth), "user_data": .string(userData)])
    }

    /// The fields of an auth request: form-encoded (as Pusher clients send them) or JSON.
    private func authFields(_ request: ChatRequest) throws(ChatError) -> [String: String] {
        guard request.body.count <= configuration.limits.jsonBodyBytes else {
            throw ChatError(.payloadTooLarge, "the body is larger than \(configuration.limits.jsonBodyBytes) bytes")
        }
        if request.mediaType == "application/x-www-form-urlencoded" {
            let query = PusherQuery(parsing: Substring(String(decoding: request.body, as: UTF8.self)))
            var fields: [String: String] = [:]
            for parameter in query.parameters where fields[parameter.key] == nil { fields[parameter.key] = parameter.value }
            return fields
        }
        let body = try JSONBody(request, limit: configuration.limits.jsonBodyBytes)
        var fields: [String: String] = [:]
        for key in ["socket_id", "channel_name"] { fields[key] = try body.optionalString(key) }
        return fields
    }
}
