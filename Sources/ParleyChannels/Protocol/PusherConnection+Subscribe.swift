import ParleyWire

extension PusherConnection {
    /// Handles `pusher:subscribe`: validate the name, check the signature, ask the hub.
    mutating func subscribe(_ message: PusherMessage) -> [PusherConnectionAction] {
        guard let data = message.dataObject, let name = data["channel"]?.stringValue else {
            return [.send(PusherFrame.error(code: nil, message: "pusher:subscribe needs data.channel"))]
        }
        let channel: PusherChannel
        do {
            channel = try PusherChannel(validating: name)
        } catch {
            return subscriptionError(
                name, code: nil, type: "InvalidChannel", "Invalid channel name '\(name.prefix(210))' (\(error))", status: 400)
        }
        if subscriptions[name] == nil, subscriptions.count >= app.limits.maxChannelsPerConnection {
            return subscriptionError(
                name, code: PusherErrorCode.tooManySubscriptions.rawValue, type: "LimitReached",
                "Subscription to \(name) refused: this connection already holds \(subscriptions.count) channels "
                    + "(at most \(app.limits.maxChannelsPerConnection)); unsubscribe from one first", status: 429)
        }
        let auth = data["auth"]?.stringValue ?? ""
        var member: PresenceMember?
        switch channel.kind {
        case .public:
            break
        case .private, .privateEncrypted:
            guard
                app.acceptsAnySecret({
                    PusherSignature.verifyChannelAuth(
                        auth, key: app.key, secret: $0, socketID: socketID.rawValue, channel: name, channelData: nil)
                })
            else {
                return authError(name, "Invalid signature for channel \(name)")
            }
        case .presence:
            guard let channelData = data["channel_data"]?.stringValue else {
                return subscriptionError(name, code: nil, type: "AuthError", "Presence channels need channel_data", status: 400)
            }
            guard
                app.acceptsAnySecret({
                    PusherSignature.verifyChannelAuth(
                        auth, key: app.key, secret: $0, socketID: socketID.rawValue, channel: name, channelData: channelData)
                })
            else {
                return authError(name, "Invalid signature for channel \(name)")
            }
            switch presenceMember(from: channelData) {
            case .success(let m): member = m
            case .failure(let problem): return subscriptionError(name, code: nil, type: "AuthError", problem.message, status: 400)
            }
        case .serverToUser:
            guard let user, user.userID == channel.serverToUserID else {
                return authError(name, "Only the connection signed in as this user may subscribe to \(name)")
            }
        }
        subscriptions[name] = Subscription(channel: channel, state: .pending, presenceUserID: member?.userID)
        return [.subscribe(PusherSubscribeRequest(channel: channel, member: member))]
    }

    /// The hub's answer to a `.subscribe` action.
    public mutating func subscriptionResult(channel name: String, _ outcome: PusherSubscribeOutcome) -> [PusherConnectionAction] {
        guard !isClosed, let subscription = subscriptions[name] else {
            // The client left (or the connection closed) while the hub was deciding: undo.
            if case .succeeded = outcome { return [.unsubscribe(channel: name)] }
            return []
        }
        switch outcome {
        case .held:
            return []
        case .refused(let code, let message, let status):
            subscriptions[name] = nil
            return subscriptionError(
                name, code: code, type: status == 401 || status == 403 ? "AuthError" : "LimitReached", message, status: status)
        case .succeeded(let members, let cache):
            subscriptions[name]?.state = .subscribed
            var actions: [PusherConnectionAction] = []
            if subscription.channel.kind == .presence {
                let list = (members ?? []).map { (id: $0.userID, info: $0.userInfo) }
                actions.append(.send(PusherFrame.presenceSubscriptionSucceeded(channel: name, members: list)))
            } else {
                actions.append(.send(PusherFrame.subscriptionSucceeded(channel: name)))
            }
            switch cache {
            case .none: break
            case .hit(let frame): actions.append(.send(frame))
            case .miss: actions.append(.send(PusherFrame.cacheMiss(channel: name)))
            }
            return actions
        }
    }

    /// The hub ended the subscription (access revoked); true when the connection held it.
    /// The hub has already removed it, so no `.unsubscribe` action follows.
    public mutating func subscriptionRevoked(channel name: String) -> Bool {
        guard !isClosed else { return false }
        return subscriptions.removeValue(forKey: name) != nil
    }

    /// Handles `pusher:unsubscribe`; no reply.
    mutating func unsubscribe(_ message: PusherMessage) -> [PusherConnectionAction] {
        guard let name = message.dataObject?["channel"]?.stringValue, subscriptions.removeValue(forKey: name) != nil else { return [] }
        return [.unsubscribe(channel: name)]
    }

    /// A presence member problem, reported to the client.
    struct MemberProblem: Error {
        var message: String
    }

    /// Reads `{"user_id", "user_info"?}` from signed channel data and checks the limits.
    func presenceMember(from channelData: String) -> Result<PresenceMember, MemberProblem> {
        guard let object = (try? JSONParser.parse(channelData))?.objectValue else {
            return .failure(MemberProblem(message: "channel_data must be a JSON object"))
        }
        let userID: String
        switch object["user_id"] {
        case .string(let s)?: userID = s
        case .number(let n)?: userID = n
        default: return .failure(MemberProblem(message: "channel_data.user_id must be a string or number"))
        }
        guard !userID.isEmpty, userID.count <= app.limits.maxUserIDLength else {
            return .failure(MemberProblem(message: "user_id must be 1 to \(app.limits.maxUserIDLength) characters"))
        }
        let info = object["user_info"] ?? .null
        guard JSONWriter.serialize(info).count <= app.limits.maxUserInfoBytes else {
            return .failure(MemberProblem(message: "user_info is larger than \(app.limits.maxUserInfoBytes) bytes"))
        }
        return .success(PresenceMember(userID: userID, userInfo: info))
    }

    private func authError(_ channel: String, _ message: String) -> [PusherConnectionAction] {
        subscriptionError(channel, code: PusherErrorCode.unauthorized.rawValue, type: "AuthError", message, status: 401)
    }

    private func subscriptionError(_ channel: String, code: Int?, type: String, _ message: String, status: Int) -> [PusherConnectionAction]
    {
        [
            .send(PusherFrame.error(code: code, message: message)),
            .send(PusherFrame.subscriptionError(channel: channel, type: type, error: message, status: status))
        ]
    }
}
