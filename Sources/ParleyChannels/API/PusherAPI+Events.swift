import ParleyWire

extension PusherAPI {
    /// One event to trigger, validated.
    struct Trigger {
        var name: String
        var data: JSONValue
        var channels: [String]
        var socketID: String?
        var info: Set<String>
    }

    /// `POST /apps/{id}/events`.
    func events(app: AppConfig, _ request: PusherAPIRequest) -> PusherAPIResponse {
        guard let object = (try? JSONParser.parse(request.body))?.objectValue else { return .error(400, "Body must be a JSON object") }
        switch trigger(from: object, app: app, batch: false) {
        case .failure(let response): return response
        case .success(let t):
            hub.publish(app: app, events: t.channels.map { HubEvent(channel: $0, event: t.name, data: t.data, excluding: t.socketID) })
            guard !t.info.isEmpty else { return .empty }
            var channels = JSONObject()
            for name in t.channels { channels.append(name, .object(info(t.info, app: app, channel: name))) }
            return PusherAPIResponse(status: 200, json: .object(["channels": .object(channels)]))
        }
    }

    /// `POST /apps/{id}/batch_events`.
    func batchEvents(app: AppConfig, _ request: PusherAPIRequest) -> PusherAPIResponse {
        guard let object = (try? JSONParser.parse(request.body))?.objectValue, let batch = object["batch"]?.arrayValue else {
            return .error(400, "Body must be {\"batch\": [...]}")
        }
        guard batch.count <= app.limits.maxBatchEvents else {
            return .error(400, "Batch has \(batch.count) events; at most \(app.limits.maxBatchEvents) are allowed")
        }
        var triggers: [Trigger] = []
        for item in batch {
            guard let itemObject = item.objectValue else { return .error(400, "Each batch item must be an object") }
            switch trigger(from: itemObject, app: app, batch: true) {
            case .failure(let response): return response
            case .success(let t): triggers.append(t)
            }
        }
        hub.publish(
            app: app,
            events: triggers.flatMap { t in
                t.channels.map { HubEvent(channel: $0, event: t.name, data: t.data, excluding: t.socketID) }
            })
        guard triggers.contains(where: { !$0.info.isEmpty }) else { return .empty }
        let results: [JSONValue] = triggers.map { .object(info($0.info, app: app, channel: $0.channels[0])) }
        return PusherAPIResponse(status: 200, json: .object(["batch": .array(results)]))
    }

    private func trigger(from object: JSONObject, app: AppConfig, batch: Bool) -> Result<Trigger, PusherAPIResponse> {
        guard let name = object["name"]?.stringValue, !name.isEmpty, name.utf8.count <= 200 else {
            return .failure(.error(400, "name must be a string of 1 to 200 characters"))
        }
        let data: JSONValue
        switch object["data"] {
        case .string(let s)?: data = .string(s)
        case nil, .null?: return .failure(.error(400, "data is required (a string)"))
        case let other?: data = .string(JSONWriter.string(other))
        }
        guard (data.stringValue?.utf8.count ?? 0) <= app.limits.maxEventBytes else {
            return .failure(.error(413, "data is larger than \(app.limits.maxEventBytes) bytes"))
        }
        var channels: [String] = []
        if !batch, let list = object["channels"] {
            guard let array = list.arrayValue else { return .failure(.error(400, "channels must be an array of strings")) }
            for item in array {
                guard let s = item.stringValue else { return .failure(.error(400, "channels must be an array of strings")) }
                channels.append(s)
            }
        } else if let single = object["channel"]?.stringValue {
            channels = [single]
        }
        guard !channels.isEmpty else { return .failure(.error(400, batch ? "channel is required" : "channels or channel is required")) }
        guard channels.count <= app.limits.maxChannelsPerEvent else {
            return .failure(.error(400, "Too many channels: \(channels.count) (at most \(app.limits.maxChannelsPerEvent))"))
        }
        for channel in channels where PusherChannel(channel) == nil {
            return .failure(.error(400, "Invalid channel name '\(channel.prefix(210))'"))
        }
        var socketID: String?
        if let value = object["socket_id"], value != .null {
            guard let s = value.stringValue, PusherSocketID.isValid(s) else {
                return .failure(.error(400, "socket_id must look like 123.456"))
            }
            socketID = s
        }
        let info = Set((object["info"]?.stringValue ?? "").split(separator: ",").map { String($0) })
        if info.contains("user_count"), let channel = channels.first(where: { PusherChannel($0)?.kind != .presence }) {
            return .failure(.error(400, "info=user_count is only for presence channels, not \(channel)"))
        }
        return .success(Trigger(name: name, data: data, channels: channels, socketID: socketID, info: info))
    }

    /// The requested attributes of a channel.
    func info(_ attributes: Set<String>, app: AppConfig, channel: String) -> JSONObject {
        let snapshot = hub.snapshot(app: app, channel: channel)
        var out = JSONObject()
        if attributes.contains("user_count") { out.append("user_count", .int(snapshot.userCount ?? 0)) }
        if attributes.contains("subscription_count") { out.append("subscription_count", .int(snapshot.subscriptionCount)) }
        return out
    }
}
