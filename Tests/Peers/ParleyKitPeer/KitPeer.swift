import ParleyKit
import ParleyWire

/// One ParleyClient driven by command lines; reports its connection states, room events and
/// command results as JSON lines (see main.swift for the protocol).
actor KitPeer {
    private let client: ParleyClient
    private let network: NetworkSwitch
    private var watchers: [Task<Void, Never>] = []

    init(options: PeerOptions) throws(ParleyError) {
        let network = NetworkSwitch()
        self.network = network
        // URLSession reads its CA file from the environment on Linux (FoundationNetworking).
        let http: any HTTPTransport =
            options.httpTransport == "urlsession"
            ? URLSessionHTTPTransport()
            : SocketHTTPTransport(caFile: options.caFile)
        client = try ParleyClient(
            configuration: options.configuration, tokenProvider: StaticTokenProvider(options.token),
            http: SwitchedHTTPTransport(network: network, inner: http),
            realtime: SwitchedRealtimeTransport(network: network, inner: WebSocketRealtimeTransport(caFile: options.caFile)))
    }

    /// Reports every connection state change.
    func reportStates() {
        let states = client.connectionStates()
        watchers.append(
            Task {
                for await state in states { PeerOutput.emit(["event": .string("state"), "state": .string(Self.name(state))]) }
            })
    }

    /// Runs one command line; answers with exactly one `done` or `error` report.
    func handle(_ line: String) async -> Bool {
        var words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard !words.isEmpty else { return true }
        let command = words.removeFirst()
        do throws(ParleyError) {
            var reply: JSONObject = ["event": .string("done"), "command": .string(command)]
            switch command {
            case "connect": try await client.connect()
            case "disconnect": await client.disconnect()
            case "network": network.set(on: try Self.word(words, 0) == "on")
            case "fail-history":
                guard let count = Int(try Self.word(words, 0)) else { throw ParleyError(.invalidArgument, "fail-history needs a count") }
                network.failHistory(count)
            case "watch": try await watch(try Self.word(words, 0), after: words.count > 1 ? Int64(words[1]) : nil)
            case "send":
                let text = words.dropFirst().joined(separator: " ")
                // The outbox entry: the tests follow it through the outbox and the feed.
                let pending = try await client.enqueue([.text(text)], to: try Self.word(words, 0))
                reply["client_id"] = .string(pending.clientID)
            case "outbox":
                reply["entries"] = .array(try await client.outbox().map(Self.json))
            case "history":
                reply["messages"] = .array(try await fullHistory(try Self.word(words, 0)).map(Self.json))
            case "quit":
                for watcher in watchers { watcher.cancel() }
                await client.close()
                PeerOutput.emit(reply)
                return false
            default:
                throw ParleyError(.invalidArgument, "unknown command \(command)")
            }
            PeerOutput.emit(reply)
        } catch {
            PeerOutput.emit(["event": .string("error"), "command": .string(command), "message": .string(error.description)])
        }
        return true
    }

    /// Reports a room's events: new messages and outbox changes.
    private func watch(_ roomID: String, after seq: Int64?) async throws(ParleyError) {
        let events = try await client.roomEvents(roomID, after: seq)
        watchers.append(
            Task {
                for await event in events {
                    switch event {
                    case .message(let message):
                        var report = Self.json(message).objectValue ?? [:]
                        report["event"] = .string("message")
                        PeerOutput.emit(report)
                    case .outbox(let entries):
                        PeerOutput.emit([
                            "event": .string("outbox_changed"), "room": .string(roomID),
                            "client_ids": .array(entries.map { .string($0.clientID) })
                        ])
                    default:
                        break
                    }
                }
            })
    }

    private func fullHistory(_ roomID: String) async throws(ParleyError) -> [ChatMessage] {
        var all: [ChatMessage] = []
        while true {
            let page = try await client.history(roomID, after: all.last?.seq ?? 0, limit: 100)
            all += page.messages
            if !page.hasMore || page.messages.isEmpty { return all }
        }
    }

    private static func word(_ words: [String], _ index: Int) throws(ParleyError) -> String {
        guard index < words.count else { throw ParleyError(.invalidArgument, "missing argument \(index + 1)") }
        return words[index]
    }

    private static func json(_ message: ChatMessage) -> JSONValue {
        .object([
            "room": .string(message.roomID), "seq": .number(String(message.seq)), "id": .number(String(message.id)),
            "sender": .string(message.senderID), "client_id": message.clientID.map(JSONValue.string) ?? .null,
            "text": .string(message.text)
        ])
    }

    private static func json(_ entry: PendingMessage) -> JSONValue {
        let state: String
        switch entry.state {
        case .pending: state = "pending"
        case .failed(let code, _): state = "failed:" + code
        }
        return .object([
            "client_id": .string(entry.clientID), "room": .string(entry.roomID),
            "text": .string(entry.parts.compactMap(\.text).joined(separator: "\n")), "state": .string(state)
        ])
    }

    private static func name(_ state: ConnectionState) -> String {
        switch state {
        case .idle: "idle"
        case .signingIn: "signing_in"
        case .authenticationFailed: "authentication_failed"
        case .online: "online"
        case .offline: "offline"
        case .reconnecting: "reconnecting"
        }
    }
}
