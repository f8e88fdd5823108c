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
// Named roots (ROOT has no spaces; JSON is the rest of the line):
//   tinsert ROOT POS TEXT   inserts TEXT at scalar POS of text ROOT      -> OK | ERROR msg
//   tdelete ROOT POS COUNT  deletes COUNT scalars at POS of text ROOT    -> OK | ERROR msg
//   mset ROOT KEY JSON      sets KEY of map ROOT to the JSON value       -> OK | ERROR msg
//   mdel ROOT KEY           removes KEY from map ROOT                    -> OK
//   ainsert ROOT INDEX JSON inserts the JSON array's values at INDEX     -> OK | ERROR msg
//   adel ROOT INDEX COUNT   removes COUNT elements at INDEX of array ROOT -> OK | ERROR msg
//   get text|map|array ROOT the root as JSON                             -> VALUE json
//   waitchange ROOT         waits for a remote change of ROOT            -> OK
// UTF-16 offsets (as UIKit and SwiftUI count; TEXT is a JSON string, for marks and emoji):
//   uinsert POS JSON        inserts the text at UTF-16 offset POS         -> OK | ERROR msg
//   ureplace START END JSON replaces the UTF-16 range START..<END          -> OK | ERROR msg
//   ulen                    the text's length in UTF-16 units             -> LEN n
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
    let name = option("--doc")
else {
    say("usage: ParleyDocPeer --server URL --token JWT --room ROOM --doc NAME [--app ID]")
    exit(2)
}

let client: ParleyClient
do {
    client = try ParleyClient(
        configuration: ParleyConfiguration(serverURL: server, appKey: "", appID: option("--app")),
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

/// A JSON value as a document value.
func documentValue(_ json: JSONValue) -> DocumentValue {
    switch json {
    case .null: return .null
    case .bool(let value): return .bool(value)
    case .number(let text): return Int64(text).map(DocumentValue.integer) ?? .number(Double(text) ?? 0)
    case .string(let value): return .string(value)
    case .array(let values): return .array(values.map(documentValue))
    case .object(let object):
        var entries: [String: DocumentValue] = [:]
        for (key, value) in object { entries[key] = documentValue(value) }
        return .object(entries)
    }
}

/// A document value as JSON (bytes as an array of numbers; keys sorted).
func jsonValue(_ value: DocumentValue) -> JSONValue {
    switch value {
    case .null: return .null
    case .bool(let value): return .bool(value)
    case .integer(let value): return .number(String(value))
    case .number(let value): return value.isFinite ? .number(String(value)) : .null
    case .string(let value), .json(let value): return .string(value)
    case .binary(let bytes): return .array(bytes.map { .int(Int($0)) })
    case .array(let values): return .array(values.map(jsonValue))
    case .object(let entries): return .object(JSONObject(entries.keys.sorted().map { (key: $0, value: jsonValue(entries[$0]!)) }))
    }
}

func parseJSON(_ text: String) -> JSONValue? { try? JSONParser.parse(text) }

/// Remote changes seen so far, by root.
actor ChangeLog {
    var seen: [String: Int] = [:]
    func record(_ change: DocumentChange) { for root in change.roots { seen[root, default: 0] += 1 } }
    func count(_ root: String) -> Int { seen[root] ?? 0 }
}
let changeLog = ChangeLog()
let changeStream = session.changes()
Task {
    for await change in changeStream where !change.isLocal { await changeLog.record(change) }
}

/// The commands on named roots; nil for other commands.
func runNamed(_ line: String) async throws -> String? {
    let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
    switch parts[0] {
    case "tinsert" where parts.count == 4:
        guard let position = Int(parts[2]) else { return "ERROR bad position" }
        try await session.insert(parts[3], at: position, inText: parts[1])
    case "tdelete" where parts.count == 4:
        guard let position = Int(parts[2]), let count = Int(parts[3]) else { return "ERROR bad range" }
        try await session.delete(at: position, count: count, inText: parts[1])
    case "mset" where parts.count == 4:
        guard let value = parseJSON(parts[3]) else { return "ERROR bad JSON" }
        try await session.setValue(documentValue(value), forKey: parts[2], inMap: parts[1])
    case "mdel" where parts.count == 3:
        try await session.removeValue(forKey: parts[2], inMap: parts[1])
    case "ainsert" where parts.count == 4:
        guard let index = Int(parts[2]), let values = parseJSON(parts[3])?.arrayValue else { return "ERROR bad arguments" }
        try await session.insert(values.map(documentValue), at: index, inArray: parts[1])
    case "adel" where parts.count == 4:
        guard let index = Int(parts[2]), let count = Int(parts[3]) else { return "ERROR bad range" }
        try await session.remove(at: index, count: count, fromArray: parts[1])
    case "get" where parts.count == 3:
        switch parts[1] {
        case "text": return "VALUE " + json(await session.text(named: parts[2]))
        case "map": return "VALUE " + JSONWriter.string(jsonValue(.object(await session.map(named: parts[2]))))
        case "array": return "VALUE " + JSONWriter.string(jsonValue(.array(await session.array(named: parts[2]))))
        default: return "ERROR unknown kind"
        }
    case "uinsert" where parts.count >= 3:
        let rest = line.split(separator: " ", maxSplits: 2).map(String.init)
        guard let offset = Int(rest[1]), let text = parseJSON(rest[2])?.stringValue else { return "ERROR bad arguments" }
        try await session.insert(text, atUTF16: offset)
    case "ureplace" where parts.count == 4:
        guard let start = Int(parts[1]), let end = Int(parts[2]), start <= end, let text = parseJSON(parts[3])?.stringValue else {
            return "ERROR bad arguments"
        }
        try await session.replace(utf16Range: start..<end, with: text)
    case "ulen" where parts.count == 1:
        return "LEN \(await session.snapshot.utf16Count)"
    case "waitchange" where parts.count == 2:
        var polls = 0
        while await changeLog.count(parts[1]) == 0 && polls < 300 {
            try await Task.sleep(for: .milliseconds(50))
            polls += 1
        }
        return await changeLog.count(parts[1]) > 0 ? "OK" : "ERROR no change"
    default:
        return nil
    }
    return "OK"
}

func run(_ line: String) async -> String {
    let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
    do {
        if let answer = try await runNamed(line) { return answer }
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
