import ParleyWire

extension PusherAPI {
    /// `GET /apps/{id}/channels`: occupied channels, optionally by prefix, with user counts.
    func channels(app: AppConfig, _ request: PusherAPIRequest) -> PusherAPIResponse {
        let prefix = request.query["filter_by_prefix"].flatMap { $0.isEmpty ? nil : $0 }
        let attributes = infoAttributes(request)
        if attributes.contains("user_count"), !(prefix?.hasPrefix("presence-") ?? false) {
            return .error(400, "info=user_count needs filter_by_prefix=presence-")
        }
        var channels = JSONObject()
        for name in hub.occupiedChannels(app: app, prefix: prefix) {
            channels.append(name, .object(info(attributes, app: app, channel: name)))
        }
        return PusherAPIResponse(status: 200, json: .object(["channels": .object(channels)]))
    }

    /// `GET /apps/{id}/channels/{name}`: occupied and the requested attributes.
    func channel(app: AppConfig, name: String, _ request: PusherAPIRequest) -> PusherAPIResponse {
        guard let channel = PusherChannel(name) else { return .error(400, "Invalid channel name") }
        let attributes = infoAttributes(request)
        if attributes.contains("user_count"), channel.kind != .presence {
            return .error(400, "info=user_count is only for presence channels")
        }
        let snapshot = hub.snapshot(app: app, channel: name)
        var out: JSONObject = ["occupied": .bool(snapshot.occupied)]
        if attributes.contains("user_count") { out.append("user_count", .int(snapshot.userCount ?? 0)) }
        if attributes.contains("subscription_count") { out.append("subscription_count", .int(snapshot.subscriptionCount)) }
        if attributes.contains("cache") {
            guard channel.isCache else { return .error(400, "info=cache is only for cache channels") }
            if let cache = snapshot.cache {
                out.append("cache", .object(["data": cache.data, "ttl": .int(cache.ttl)]))
            }
        }
        return PusherAPIResponse(status: 200, json: .object(out))
    }

    /// `GET /apps/{id}/channels/{name}/users`: presence members.
    func users(app: AppConfig, channel name: String) -> PusherAPIResponse {
        guard let channel = PusherChannel(name), channel.kind == .presence else {
            return .error(400, "Users can only be listed for presence channels")
        }
        let users: [JSONValue] = hub.presenceUsers(app: app, channel: name).map { .object(["id": .string($0)]) }
        return PusherAPIResponse(status: 200, json: .object(["users": .array(users)]))
    }

    /// `POST /apps/{id}/users/{uid}/terminate_connections` (and the `/users/...` alias).
    func terminate(app: AppConfig, userID: String, _ request: PusherAPIRequest) -> PusherAPIResponse {
        guard !userID.isEmpty, userID.count <= app.limits.maxUserIDLength else { return .error(400, "Invalid user id") }
        hub.terminateUser(app: app, userID: userID)
        return .empty
    }

    private func infoAttributes(_ request: PusherAPIRequest) -> Set<String> {
        Set((request.query["info"] ?? "").split(separator: ",").map { String($0) })
    }
}
