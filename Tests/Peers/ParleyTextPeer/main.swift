// A line-protocol peer around ParleyText for the Python interop tests.
//
// Each input line is one JSON request; each gets exactly one JSON response line.
// Requests name a document ("doc", default "a"); updates and state vectors travel as hex.
//   {"op":"new","doc":"a","client":7,"root":"text"}      -> {"ok":true}
//   {"op":"insert","doc":"a","pos":3,"text":"é"}          -> {"ok":true}   (pos in scalars)
//   {"op":"delete","doc":"a","pos":3,"len":2}             -> {"ok":true}
//   {"op":"take","doc":"a"}                               -> {"ok":true,"update":hex|null}
//   {"op":"sv","doc":"a"}                                 -> {"ok":true,"sv":hex}
//   {"op":"diff","doc":"a","sv":hex}                      -> {"ok":true,"update":hex}
//   {"op":"apply","doc":"a","update":hex}                 -> {"ok":true} or {"ok":false,"error":{...}}
//   {"op":"text","doc":"a"}                               -> {"ok":true,"text":...,"len":n,"pending":b}
// y-protocols messages (hex):
//   {"op":"sync_step1","doc":"a"}                         -> {"ok":true,"message":hex}
//   {"op":"sync_update","doc":"a"}                        -> {"ok":true,"message":hex|null} (local edits)
//   {"op":"sync_handle","doc":"a","message":hex}          -> {"ok":true,"reply":hex|null}
//   {"op":"sync_decode","message":hex}                    -> {"ok":true,"type":..., ...fields}
//   {"op":"awareness_encode","entries":[[client,clock,json|null],...]} -> {"ok":true,"message":hex}
// Generic replicas (YDocument, any Yjs content, as the server holds documents):
//   {"op":"replica_new","doc":"r"}                        -> {"ok":true}
//   {"op":"replica_apply","doc":"r","update":hex}         -> {"ok":true,"changed":b,"pending":b} or an error
//   {"op":"replica_sv","doc":"r"}                         -> {"ok":true,"sv":hex}
//   {"op":"replica_diff","doc":"r","sv":hex}              -> {"ok":true,"update":hex,"pending":[hex...]}
import Foundation
import ParleyText

/// The peer's documents by name, and the request dispatcher.
struct TextPeer {
    var documents: [String: TextDocument] = [:]
    var replicas: [String: YDocument] = [:]

    mutating func handle(_ request: [String: Any]) -> [String: Any] {
        let name = request["doc"] as? String ?? "a"
        let op = request["op"] as? String ?? ""
        if op.hasPrefix("replica_") {
            return handleReplica(op, name: name, request)
        }
        if op == "sync_decode" || op == "awareness_encode" {
            return handleStateless(op, request)
        }
        if op == "new" {
            let client = (request["client"] as? NSNumber)?.uint64Value ?? 1
            documents[name] = TextDocument(clientID: client, rootName: request["root"] as? String ?? "text")
            return ["ok": true]
        }
        guard var document = documents[name] else {
            return failure("no_document", "no document named \(name)")
        }
        defer { documents[name] = document }
        do throws(ParleyTextError) {
            switch op {
            case "insert":
                try document.insert(request["text"] as? String ?? "", at: request["pos"] as? Int ?? 0)
                return ["ok": true]
            case "delete":
                try document.delete(at: request["pos"] as? Int ?? 0, count: request["len"] as? Int ?? 0)
                return ["ok": true]
            case "take":
                return ["ok": true, "update": document.takeLocalUpdate().map(Hex.encode) ?? NSNull()]
            case "sv":
                return ["ok": true, "sv": Hex.encode(document.encodeStateVector())]
            case "diff":
                let vector = Hex.decode(request["sv"] as? String ?? "00") ?? []
                return ["ok": true, "update": Hex.encode(try document.encodeStateAsUpdate(since: vector))]
            case "apply":
                guard let update = Hex.decode(request["update"] as? String ?? "") else {
                    return failure("bad_hex", "update is not hex")
                }
                try document.applyUpdate(update)
                return ["ok": true]
            case "sync_step1":
                return ["ok": true, "message": Hex.encode(YSyncMessage.syncStep1(stateVector: document.encodeStateVector()).encode())]
            case "sync_update":
                return ["ok": true, "message": document.takeLocalUpdate().map { Hex.encode(YSyncMessage.update($0).encode()) } ?? NSNull()]
            case "sync_handle":
                let bytes = Hex.decode(request["message"] as? String ?? "") ?? []
                let message: YSyncMessage
                do {
                    message = try YSyncMessage.decode(bytes)
                } catch {
                    return failure(error.code, error.description)
                }
                switch message {
                case .syncStep1(let vector):
                    let diff = try document.encodeStateAsUpdate(since: vector)
                    return ["ok": true, "reply": Hex.encode(YSyncMessage.syncStep2(update: diff).encode())]
                case .syncStep2(let update), .update(let update):
                    try document.applyUpdate(update)
                    return ["ok": true, "reply": NSNull()]
                default:
                    return ["ok": true, "reply": NSNull()]
                }
            case "text":
                return [
                    "ok": true, "text": document.text, "len": document.count,
                    "pending": document.hasPendingUpdates
                ]
            default:
                return failure("unknown_op", "unknown op \(op)")
            }
        } catch {
            return failure(error.code, error.description)
        }
    }

    /// Operations on generic replicas.
    private mutating func handleReplica(_ op: String, name: String, _ request: [String: Any]) -> [String: Any] {
        if op == "replica_new" {
            replicas[name] = YDocument()
            return ["ok": true]
        }
        guard var replica = replicas[name] else { return failure("no_document", "no replica named \(name)") }
        defer { replicas[name] = replica }
        do throws(ParleyTextError) {
            switch op {
            case "replica_apply":
                guard let update = Hex.decode(request["update"] as? String ?? "") else {
                    return failure("bad_hex", "update is not hex")
                }
                let changed = try replica.applyUpdate(update)
                return ["ok": true, "changed": changed, "pending": replica.hasPendingUpdates]
            case "replica_sv":
                return ["ok": true, "sv": Hex.encode(replica.encodeStateVector())]
            case "replica_diff":
                let vector = Hex.decode(request["sv"] as? String ?? "00") ?? []
                return [
                    "ok": true, "update": Hex.encode(try replica.encodeStateAsUpdate(since: vector)),
                    "pending": replica.pendingUpdates.map(Hex.encode)
                ]
            default:
                return failure("unknown_op", "unknown op \(op)")
            }
        } catch {
            return failure(error.code, error.description)
        }
    }

    /// Operations on messages alone, without a document.
    private func handleStateless(_ op: String, _ request: [String: Any]) -> [String: Any] {
        if op == "awareness_encode" {
            let rows = request["entries"] as? [[Any]] ?? []
            let entries = rows.map { row in
                AwarenessUpdate.Entry(
                    clientID: (row[0] as? NSNumber)?.uint64Value ?? 0,
                    clock: (row[1] as? NSNumber)?.uint64Value ?? 0, state: row[2] as? String)
            }
            return ["ok": true, "message": Hex.encode(YSyncMessage.awareness(AwarenessUpdate(entries: entries)).encode())]
        }
        guard let bytes = Hex.decode(request["message"] as? String ?? "") else { return failure("bad_hex", "message is not hex") }
        do {
            switch try YSyncMessage.decode(bytes) {
            case .syncStep1(let vector): return ["ok": true, "type": "step1", "payload": Hex.encode(vector)]
            case .syncStep2(let update): return ["ok": true, "type": "step2", "payload": Hex.encode(update)]
            case .update(let update): return ["ok": true, "type": "update", "payload": Hex.encode(update)]
            case .queryAwareness: return ["ok": true, "type": "query_awareness"]
            case .permissionDenied(let reason): return ["ok": true, "type": "permission_denied", "reason": reason]
            case .awareness(let update):
                let entries: [[Any]] = update.entries.map { [$0.clientID, $0.clock, $0.state ?? NSNull()] }
                return ["ok": true, "type": "awareness", "entries": entries]
            }
        } catch {
            return failure(error.code, error.description)
        }
    }

    private func failure(_ code: String, _ message: String) -> [String: Any] {
        ["ok": false, "error": ["code": code, "message": message]]
    }
}

/// Lower-case hex encoding of byte arrays.
enum Hex {
    static func encode(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ text: String) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 2)
        var index = 0
        while index < chars.count {
            guard let high = nibble(chars[index]), let low = nibble(chars[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    private static func nibble(_ char: UInt8) -> UInt8? {
        switch char {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): char - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): char - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): char - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

var peer = TextPeer()
while let line = readLine() {
    guard !line.isEmpty else { continue }
    let response: [String: Any]
    if let data = line.data(using: .utf8),
        let request = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    {
        response = peer.handle(request)
    } else {
        response = ["ok": false, "error": ["code": "bad_json", "message": "request is not a JSON object"]]
    }
    let data = (try? JSONSerialization.data(withJSONObject: response)) ?? Data("{\"ok\":false}".utf8)
    FileHandle.standardOutput.write(data)
    FileHandle.standardOutput.write(Data("\n".utf8))
}
