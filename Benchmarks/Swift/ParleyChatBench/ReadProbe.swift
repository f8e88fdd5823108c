import ParleyWire

/// Sequential latency of read requests on one keep-alive connection with the server otherwise
/// idle: the history page (latest 50 of a room) and the room list of the user in every room.
struct ReadProbe {
    let options: LoadOptions
    let readerToken: String

    /// History pages, cycling over the send rooms; the first answer is checked for 50 messages.
    func history() throws(BenchError) -> LatencySummary {
        let requests = (0..<options.rooms).map {
            BlockingHTTPClient.request("GET", "/v1/rooms/\(BenchNames.room($0))/messages?limit=50", authorization: "Bearer " + readerToken)
        }
        return try measure(requests, samples: options.historySamples, what: "history page") { (body) throws(BenchError) in
            let count = (try? JSONParser.parse(body))?["messages"]?.arrayValue?.count
            guard count == 50 else {
                throw BenchError("check", "a history page held \(count.map(String.init) ?? "no") messages, not 50 (send more first)")
            }
        }
    }

    /// The reader's room list, all of it in one page; the first answer is checked for every room.
    func roomList() throws(BenchError) -> LatencySummary {
        let expected = max(options.rooms, options.listRooms)
        let request = BlockingHTTPClient.request("GET", "/v1/me/rooms?limit=\(expected)", authorization: "Bearer " + readerToken)
        return try measure([request], samples: options.roomListSamples, what: "room list") { (body) throws(BenchError) in
            let count = (try? JSONParser.parse(body))?["rooms"]?.arrayValue?.count
            guard count == expected else {
                throw BenchError("check", "the room list held \(count.map(String.init) ?? "no") rooms, not \(expected)")
            }
        }
    }

    /// Moves the reader's read cursor to the end of every room (untimed), so a second room-list
    /// measurement has no unread messages to count.
    func markAllRead() throws(BenchError) {
        let client = try BlockingHTTPClient(host: options.host, port: options.port)
        let body = Array(#"{"seq":1000000000000}"#.utf8)
        for room in 0..<max(options.rooms, options.listRooms) {
            let request = BlockingHTTPClient.request(
                "PUT", "/v1/rooms/\(BenchNames.room(room))/cursor",
                authorization: "Bearer " + readerToken, body: body)
            let response = try client.perform(request)
            guard response.status == 200 else {
                throw BenchError("http_status", "read cursor in room \(room): HTTP \(response.status)")
            }
        }
    }

    /// Warms up with 50 requests, then times `samples` requests one after the other.
    private func measure(
        _ requests: [[UInt8]], samples: Int, what: String,
        check: ([UInt8]) throws(BenchError) -> Void
    ) throws(BenchError) -> LatencySummary {
        let client = try BlockingHTTPClient(host: options.host, port: options.port)
        let first = try client.perform(requests[0])
        guard first.status == 200 else {
            throw BenchError(
                "http_status", "\(what): HTTP \(first.status) \(String(decoding: (first.body ?? []).prefix(300), as: UTF8.self))")
        }
        try check(first.body ?? [])
        for index in 0..<50 { _ = try client.perform(requests[index % requests.count], keepBody: false) }
        var latencies: [UInt64] = []
        latencies.reserveCapacity(samples)
        for index in 0..<samples {
            let start = BenchClock.now()
            let response = try client.perform(requests[index % requests.count], keepBody: false)
            let end = BenchClock.now()
            guard response.status == 200 else { throw BenchError("http_status", "\(what): HTTP \(response.status)") }
            latencies.append(end - start)
        }
        return LatencySummary(nanoseconds: latencies)
    }
}
