import ParleyWireCore

/// The JSON form of message parts in the `messages.parts` column:
/// `[{"type":"text","text":"…"},{"type":"attachment","id":"…"},{"type":"url","url":"…"},{"type":"file","id":"…",…}]`.
/// It differs from the API's form (`attachment_id`) because PostgreSQL's append function reads
/// `part->>'id'` from rows already written; both are written with ParleyWireCore's JSON.
enum MessagePartsJSON {
    /// Encodes parts as a JSON array.
    static func encode(_ parts: [MessagePart]) -> String {
        var output: [UInt8] = [UInt8(ascii: "[")]
        for (index, part) in parts.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            switch part {
            case .text(let text): appendObject(&output, type: "text", key: "text", value: text)
            case .attachment(let id): appendObject(&output, type: "attachment", key: "id", value: id)
            case .url(let url): appendObject(&output, type: "url", key: "url", value: url)
            case .file(let file): appendFile(&output, file)
            }
        }
        output.append(UInt8(ascii: "]"))
        return String(decoding: output, as: UTF8.self)
    }

    /// `{"type":"file","id":…,"name":…,"content_type":…,"size":"…"[,"width":"…","height":"…"]}`:
    /// numbers as strings, so every member of a stored part stays a string.
    private static func appendFile(_ output: inout [UInt8], _ file: FilePart) {
        appendObject(&output, type: "file", key: "id", value: file.attachmentID)
        output.removeLast()
        var members = [("name", file.name), ("content_type", file.contentType), ("size", String(file.size))]
        if let width = file.width, let height = file.height { members += [("width", String(width)), ("height", String(height))] }
        for (key, value) in members {
            output.append(contentsOf: #",""#.utf8)
            output.append(contentsOf: key.utf8)
            output.append(contentsOf: #"":"#.utf8)
            JSONWriter.writeString(value, into: &output)
        }
        output.append(UInt8(ascii: "}"))
    }

    private static func appendObject(_ output: inout [UInt8], type: String, key: String, value: String) {
        output.append(contentsOf: #"{"type":""#.utf8)
        output.append(contentsOf: type.utf8)
        output.append(contentsOf: #"",""#.utf8)
        output.append(contentsOf: key.utf8)
        output.append(contentsOf: #"":"#.utf8)
        JSONWriter.writeString(value, into: &output)
        output.append(UInt8(ascii: "}"))
    }

    /// Decodes the column's JSON; `internal` error for anything this encoder would not have written.
    static func decode(_ json: String) throws(StoreError) -> [MessagePart] {
        // Built only when thrown: every message read comes through here.
        var malformed: StoreError { StoreError(.internal, "malformed message parts in the database: \(json.prefix(80))") }
        guard let items = (try? JSONParser.parse(json))?.arrayValue else { throw malformed }
        var parts: [MessagePart] = []
        parts.reserveCapacity(items.count)
        for item in items {
            guard let object = item.objectValue, object.allSatisfy({ $0.value.stringValue != nil }) else { throw malformed }
            switch object["type"]?.stringValue {
            case "text"?: if let text = object["text"]?.stringValue { parts.append(.text(text)); continue }
            case "attachment"?: if let id = object["id"]?.stringValue { parts.append(.attachment(id: id)); continue }
            case "url"?: if let url = object["url"]?.stringValue { parts.append(.url(url)); continue }
            case "file"?: if let file = decodeFile(object) { parts.append(.file(file)); continue }
            default: break
            }
            throw malformed
        }
        return parts
    }

    private static func decodeFile(_ object: JSONObject) -> FilePart? {
        guard let id = object["id"]?.stringValue, let name = object["name"]?.stringValue,
            let contentType = object["content_type"]?.stringValue, let size = object["size"]?.stringValue.flatMap({ Int64($0) })
        else { return nil }
        return FilePart(
            attachmentID: id, name: name, contentType: contentType, size: size,
            width: object["width"]?.stringValue.flatMap { Int($0) }, height: object["height"]?.stringValue.flatMap { Int($0) })
    }
}
