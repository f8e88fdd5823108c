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
import Foundation
import ParleyText

/// The peer's documents by name, and the request dispatcher.
struct TextPeer {
    var documents: [String: TextDocument] = [:]

    mutating func handle(_ request: [String: Any]) -> [String: Any] {
        let name = request["doc"] as? String ?? "a"
        let op = request["op"] as? String ?? ""
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
            case "text":
                return ["ok": true, "text": document.text, "len": document.count,
                        "pending": document.hasPendingUpdates]
            default:
                return failure("unknown_op", "unknown op \(op)")
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
       let request = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
        response = peer.handle(request)
    } else {
        response = ["ok": false, "error": ["code": "bad_json", "message": "request is not a JSON object"]]
    }
    let data = (try? JSONSerialization.data(withJSONObject: response)) ?? Data("{\"ok\":false}".utf8)
    FileHandle.standardOutput.write(data)
    FileHandle.standardOutput.write(Data("\n".utf8))
}
