// A ParleyKit document session driven by lines on stdin, for the Python interop tests.
//
//   ParleyDocPeer --server http://127.0.0.1:PORT --token JWT --room ROOM --doc NAME [--app ID]
//
// Prints `READY <client id>` once synced, then answers one line per command:
//   insert POS TEXT   inserts TEXT (the rest of the line) at scalar POS   -> OK | ERROR msg
//   append TEXT       inserts TEXT at the end                             -> OK
//   delete POS COUNT  deletes COUNT scalars at POS                        -> OK | ERROR msg
//   text              the text as a JSON string                           -> TEXT "..."
//   wait TEXT         waits until the text contains TEXT                  -> OK
//   caret POS         puts this user's caret at scalar POS (awareness)   -> OK
//   peers             the others present, JSON [{"name":…,"head":N|null}] -> PEERS [...]
//   quit              closes the session and exits                        -> BYE
import Glibc
import ParleyKit
import ParleyWire

func say(_ line: String) {
    print(line)
    fflush(nil)
}

func option(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

guard let server = option("--server"), let token = option("--token"), let room = option("--room"),
      let name = option("--doc") else {
    say("usage: ParleyDocPeer --server URL --token JWT --room ROOM --doc NAME [--app ID]")
    exit(2)
}

let client: ParleyClient
do {
    client = try ParleyClient(configuration: ParleyConfiguration(serverURL: server, appKey: "", appID: option("--app")),
                              tokenProvider: StaticTokenProvider(token))
} catch {
    say("ERROR \(error)")
    exit(1)
}
let session: DocumentSession
do {
    session = try await client.openDocument(room: room, name: name)
    try await session.waitUntilSynced()
} catch {
    say("ERROR \(error)")
    exit(1)
}
say("READY \(session.clientID)")

func json(_ text: String) -> String { JSONWriter.string(.string(text)) }

func run(_ line: String) async -> String {
    let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
    do {
        switch parts[0] {
        case "insert" where parts.count == 3:
            guard let position = Int(parts[1]) else { return "ERROR bad position" }
            try await session.insert(parts[2], at: position)
            return "OK"
        case "append":
            let text = String(line.dropFirst("append ".count))
            try await session.insert(text, at: await session.count)
            return "OK"
        case "delete" where parts.count == 3:
            guard let position = Int(parts[1]), let count = Int(parts[2]) else { return "ERROR bad range" }
            try await session.delete(at: position, count: count)
            return "OK"
        case "text":
            return "TEXT " + json(await session.text)
        case "wait":
            let wanted = String(line.dropFirst("wait ".count))
            for await snapshot in session.snapshots() where snapshot.text.contains(wanted) { return "OK" }
            return "ERROR closed"
        case "caret" where parts.count == 2:
            guard let position = Int(parts[1]) else { return "ERROR bad position" }
            await session.setSelection(.cursor(position))
            return "OK"
        case "peers":
            let peers = await session.snapshot.peers.map { peer -> JSONValue in
                .object(["name": .string(peer.presence.name), "head": peer.presence.selection.map { .int($0.head) } ?? .null])
            }
            return "PEERS " + JSONWriter.string(.array(peers))
        default:
            return "ERROR unknown command: \(line)"
        }
    } catch {
        return "ERROR \(error)"
    }
}

while let line = readLine() {
    if line == "quit" { break }
    say(await run(line))
}
await session.close()
await client.close()
say("BYE")
