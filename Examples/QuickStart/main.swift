import Foundation
import ParleyKit

// Your backend's token endpoint signs the user in; `parley serve --dev` has one for trying out.
let arguments = CommandLine.arguments
let server = URL(string: arguments.count > 1 ? arguments[1] : "http://127.0.0.1:8080")!
let userID = arguments.count > 2 ? arguments[2] : "alice"
let tokens = HTTPTokenProvider(url: server.appendingPathComponent("v1/dev/token"), userID: userID)
let client = try ParleyClient(configuration: ParleyConfiguration(server: server, appKey: "dev-key"), tokenProvider: tokens)
try await client.connect()

// Rooms: create one, then list the user's rooms.
let room = try await client.createRoom(name: "Quick start")
for summary in try await client.myRooms() {
    print("room:", summary.room.name ?? summary.room.id, "unread:", summary.unreadCount)
}

// Observe the room, then send: send returns once the server has the message
// (or .queued while offline; the outbox delivers it later, exactly once).
let events = try await client.roomEvents(room.id, after: 0)
switch try await client.send(text: "Hello from ParleyKit", to: room.id) {
case .delivered(let message): print("sent: seq", message.seq)
case .queued(let pending): print("queued:", pending.clientID)
}
for await event in events {
    if case .message(let message) = event {
        print("received:", message.text, "at", message.createdDate)
        break
    }
}
await client.close()
