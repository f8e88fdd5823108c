import Dispatch
import ParleyWire
import Synchronization

/// Creates the benchmark's users, tokens, rooms and memberships through the REST API (untimed).
///
/// Sender i is a member of room i mod rooms; the reader is a member of every room — the send
/// rooms and enough further rooms to make `listRooms`, each of those holding one message so
/// every room-list entry has a preview.
struct ChatSetup {
    /// What the load needs afterwards.
    struct Result {
        /// Bearer token of each sender.
        var senderTokens: [String]
        /// Bearer token of the reader.
        var readerToken: String
    }

    let options: LoadOptions

    func run() throws(BenchError) -> Result {
        let users = (0..<options.senders).map(BenchNames.sender) + [BenchNames.reader]
        let basic = "Basic " + Base64.encode(Array("\(options.appKey):\(options.appSecret)".utf8))
        let usersPath = options.configAppID == nil ? "/v1/dev/users" : "/v1/users"
        let usersAuthorization = options.configAppID == nil ? nil : basic
        try forEach(users) { (client, user) throws(BenchError) in
            let body = JSONWriter.serialize(.object(["name": .string("Bench \(user)"), "id": .string(user)]))
            let created = try client.perform(BlockingHTTPClient.request("POST", usersPath, authorization: usersAuthorization, body: body))
            // 409: the user is left from an earlier run against the same server.
            try expect([200, 201, 409], created, "create user \(user)")
        }
        let tokens = Mutex<[String: String]>([:])
        if let app = options.configAppID {
            for user in users { tokens.withLock { $0[user] = Self.mint(app: app, secret: options.appSecret, user: user) } }
        }
        try forEach(options.configAppID == nil ? users : []) { (client, user) throws(BenchError) in
            let body = JSONWriter.serialize(.object(["user_id": .string(user)]))
            let response = try client.perform(BlockingHTTPClient.request("POST", "/v1/dev/token", authorization: nil, body: body))
            try expect([200], response, "token for \(user)")
            guard let token = (try? JSONParser.parse(response.body ?? []))?["token"]?.stringValue else {
                throw BenchError("setup", "no token in the answer for \(user)")
            }
            tokens.withLock { $0[user] = token }
        }
        let roomCount = max(options.rooms, options.listRooms)
        try forEach(Array(0..<roomCount)) { (client, room) throws(BenchError) in
            var members: [JSONValue] = []
            if room < options.rooms {
                members = stride(from: room, to: options.senders, by: options.rooms).map { .string(BenchNames.sender($0)) }
            }
            if options.listRooms > 0 { members.append(.string(BenchNames.reader)) }
            let body = JSONWriter.serialize(
                .object([
                    "id": .string(BenchNames.room(room)), "kind": .string("private"),
                    "name": .string("Bench room \(room)"), "member_ids": .array(members)
                ]))
            let created = try client.perform(BlockingHTTPClient.request("POST", "/v1/rooms", authorization: basic, body: body))
            guard created.status == 409 else { return try expect([201], created, "create room \(room)") }
            // The room is left from an earlier run against the same server: make sure of its members.
            for member in members {
                let join = JSONWriter.serialize(.object(["user_id": member]))
                let path = "/v1/rooms/\(BenchNames.room(room))/members"
                try expect(
                    [200, 201], try client.perform(BlockingHTTPClient.request("POST", path, authorization: basic, body: join)),
                    "add a member to room \(room)")
            }
        }
        let readerToken = tokens.withLock { $0[BenchNames.reader] } ?? ""
        try forEach(Array(options.rooms..<roomCount)) { (client, room) throws(BenchError) in
            let body = JSONWriter.serialize(
                .object([
                    "client_id": .string("seed-\(room)"),
                    "parts": .array([.object(["type": .string("text"), "text": .string(BenchNames.text(options.textBytes))])])
                ]))
            let path = "/v1/rooms/\(BenchNames.room(room))/messages"
            try expect(
                [200, 201],
                try client.perform(BlockingHTTPClient.request("POST", path, authorization: "Bearer " + readerToken, body: body)),
                "seed message in room \(room)")
        }
        let all = tokens.withLock { $0 }
        return Result(senderTokens: (0..<options.senders).map { all[BenchNames.sender($0)] ?? "" }, readerToken: readerToken)
    }

    /// Runs `body` for every item, spread over `setupConnections` connections in parallel.
    private func forEach<Item: Sendable>(
        _ items: [Item],
        _ body: @escaping @Sendable (BlockingHTTPClient, Item) throws(BenchError) -> Void
    )
        throws(BenchError)
    {
        let workers = max(1, min(options.setupConnections, items.count))
        let failure = Mutex<BenchError?>(nil)
        let host = options.host, port = options.port
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            do throws(BenchError) {
                let client = try BlockingHTTPClient(host: host, port: port)
                for index in stride(from: worker, to: items.count, by: workers) {
                    if failure.withLock({ $0 != nil }) { return }
                    try body(client, items[index])
                }
            } catch {
                failure.withLock { if $0 == nil { $0 = error } }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
    }

    private func expect(_ statuses: [Int], _ response: ResponseScanner.Response, _ what: String) throws(BenchError) {
        guard statuses.contains(response.status) else {
            let body = String(decoding: (response.body ?? []).prefix(300), as: UTF8.self)
            throw BenchError("setup", "\(what): HTTP \(response.status) \(body)")
        }
    }
}
