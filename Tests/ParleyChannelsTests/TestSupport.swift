import ParleyWire

@testable import ParleyChannels

/// The app of the spec's known-answer vectors, with everything switched on.
func testApp(id: String = "3") -> AppConfig {
    var app = AppConfig(id: id, key: "278d425bdf160c739803", secret: "7ad3773142a6692b25b8")
    app.clientEvents = true
    app.userAuthentication = true
    return app
}

func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

func text(_ frame: [UInt8]) -> String { String(decoding: frame, as: UTF8.self) }

/// Parsed frames of `.send` actions.
func sent(_ actions: [PusherConnectionAction]) -> [PusherMessage] {
    actions.compactMap { if case .send(let f) = $0 { return try? PusherMessage.parse(f) } else { return nil } }
}

func subscribeMessage(_ channel: String, auth: String? = nil, channelData: String? = nil) -> [UInt8] {
    var data: JSONObject = ["channel": .string(channel)]
    if let auth { data.append("auth", .string(auth)) }
    if let channelData { data.append("channel_data", .string(channelData)) }
    return PusherMessage(event: "pusher:subscribe", data: .object(data)).serialized()
}

/// A transport that records what the session sends; `queued` simulates unread bytes.
final class FakeTransport: PusherTransport {
    var frames: [[UInt8]] = []
    var closedWith: Int?
    var queued = 0
    var countsTowardsQueue = false
    var queuedBytes: Int { queued }

    func sendText(_ frame: [UInt8]) {
        frames.append(frame)
        if countsTowardsQueue { queued += frame.count }
    }

    func close(code: Int, reason: String) { closedWith = code }

    var messages: [PusherMessage] { frames.compactMap { try? PusherMessage.parse($0) } }
    func events(_ name: String) -> [PusherMessage] { messages.filter { $0.event == name } }
}

/// Records webhook events.
final class RecordingSink: WebhookSink, @unchecked Sendable {
    // @unchecked: tests drive everything from one thread.
    var events: [WebhookEvent] = []
    func enqueue(app: AppConfig, event: WebhookEvent) { events.append(event) }
}

/// A clock tests move by hand.
final class TestClock: @unchecked Sendable {
    // @unchecked: tests drive everything from one thread.
    var now: Int64 = 1_000_000
    var read: @Sendable () -> Int64 { { [self] in self.now } }
}
