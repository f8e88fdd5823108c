import ParleyStore
import ParleyWire

/// A request's JSON object body, with typed field reads that fail as `invalid_request`.
struct JSONBody {
    /// The object.
    let object: JSONObject

    /// Parses a request body: 415 for a non-JSON media type, 413 above `limit`, 400 for bad JSON
    /// or a non-object. An empty body is an empty object when `emptyAllowed`.
    init(_ request: ChatRequest, limit: Int, emptyAllowed: Bool = false) throws(ChatError) {
        if let type = request.mediaType, type != "application/json", !type.hasSuffix("+json") {
            throw ChatError(.unsupportedMediaType, "send the body as application/json, not \(type)")
        }
        guard request.body.count <= limit else {
            throw ChatError(.payloadTooLarge, "the body is larger than \(limit) bytes")
        }
        if request.body.isEmpty, emptyAllowed {
            object = JSONObject()
            return
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(request.body)
        } catch {
            throw ChatError(.invalidJSON, "the body is not valid JSON: \(error)")
        }
        guard let object = value.objectValue else { throw ChatError(.invalidRequest, "the body must be a JSON object") }
        self.object = object
    }

    /// A required string field.
    func string(_ key: String) throws(ChatError) -> String {
        guard let value = try optionalString(key) else { throw ChatError(.invalidRequest, "\(key) is required") }
        return value
    }

    /// A string field that may be absent or null.
    func optionalString(_ key: String) throws(ChatError) -> String? {
        switch object[key] {
        case .none, .null?: return nil
        case .string(let value)?: return value
        default: throw ChatError(.invalidRequest, "\(key) must be a string")
        }
    }

    /// A field that may be absent (keep), null (clear) or a string (set).
    func patchString(_ key: String) throws(ChatError) -> Patch<String?> {
        switch object[key] {
        case .none: return .keep
        case .null?: return .set(nil)
        case .string(let value)?: return .set(value)
        default: throw ChatError(.invalidRequest, "\(key) must be a string or null")
        }
    }

    /// A required integer field.
    func int64(_ key: String) throws(ChatError) -> Int64 {
        guard case .number(let text)? = object[key], let value = Self.integer(text) else {
            throw ChatError(.invalidRequest, "\(key) must be an integer")
        }
        return value
    }

    /// A JSON number that is an integer: `42`, or (as JSON Schema counts integers) `42.0`
    /// and `4.2e1`, the latter only within the range a Double holds exactly.
    static func integer(_ text: String) -> Int64? {
        if let exact = Int64(text) { return exact }
        guard let value = Double(text), value.rounded(.towardZero) == value,
            abs(value) <= 9_007_199_254_740_992
        else { return nil }
        return Int64(value)
    }

    /// An array of strings that may be absent (empty).
    func stringArray(_ key: String) throws(ChatError) -> [String] {
        switch object[key] {
        case .none, .null?: return []
        case .array(let values)?:
            let strings = values.compactMap(\.stringValue)
            guard strings.count == values.count else { throw ChatError(.invalidRequest, "\(key) must hold strings") }
            return strings
        default: throw ChatError(.invalidRequest, "\(key) must be an array of strings")
        }
    }

    /// Custom data: a JSON object (stored as its text), null to clear, absent to keep.
    func customData(_ key: String = "custom_data") throws(ChatError) -> Patch<String?> {
        switch object[key] {
        case .none: return .keep
        case .null?: return .set(nil)
        case .object(let value)?: return .set(JSONWriter.string(.object(value)))
        default: throw ChatError(.invalidRequest, "\(key) must be a JSON object or null")
        }
    }

    /// A role field (`admin` or `member`), or `fallback` when absent.
    func role(_ key: String = "role", fallback: MemberRole?) throws(ChatError) -> MemberRole {
        guard let text = try optionalString(key) else {
            guard let fallback else { throw ChatError(.invalidRequest, "\(key) is required") }
            return fallback
        }
        guard let role = MemberRole(rawValue: text) else { throw ChatError(.invalidRequest, "\(key) must be admin or member") }
        return role
    }

    /// Message parts: `[{"type":"text","text"}|{"type":"attachment","attachment_id"}|{"type":"file","attachment_id"}|{"type":"url","url"}]`.
    /// A file part's metadata is left empty here: `ChatService.resolvingFiles` fills it from the attachment.
    /// A part holds only its type's keys (the document's `additionalProperties: false`); a URL
    /// part's URL must use an allowed scheme (`LinkScheme`).
    func parts(_ key: String = "parts") throws(ChatError) -> [MessagePart] {
        guard case .array(let values)? = object[key] else { throw ChatError(.invalidRequest, "\(key) must be an array of parts") }
        var parts: [MessagePart] = []
        parts.reserveCapacity(values.count)
        for value in values {
            guard let part = value.objectValue, let type = part["type"]?.stringValue else {
                throw ChatError(.invalidRequest, "each part is an object with a type")
            }
            switch type {
            case "text":
                try Self.requireOnlyKeys(part, ["type", "text"], kind: type)
                guard let text = part["text"]?.stringValue else { throw ChatError(.invalidRequest, "a text part needs text") }
                parts.append(.text(text))
            case "attachment":
                try Self.requireOnlyKeys(part, ["type", "attachment_id"], kind: type)
                guard let id = part["attachment_id"]?.stringValue else {
                    throw ChatError(.invalidRequest, "an attachment part needs attachment_id")
                }
                parts.append(.attachment(id: id))
            case "file":
                // The metadata members may be echoed back from a message read; the server sets them.
                try Self.requireOnlyKeys(
                    part, ["type", "attachment_id", "name", "content_type", "size", "width", "height", "url"], kind: type)
                guard let id = part["attachment_id"]?.stringValue else {
                    throw ChatError(.invalidRequest, "a file part needs attachment_id")
                }
                try Self.checkEchoedFileMembers(part)
                parts.append(.file(FilePart(attachmentID: id)))
            case "url":
                try Self.requireOnlyKeys(part, ["type", "url"], kind: type)
                guard let url = part["url"]?.stringValue else { throw ChatError(.invalidRequest, "a url part needs url") }
                try LinkScheme.check(url, field: "a url part's url")
                parts.append(.url(url))
            default:
                throw ChatError(.invalidRequest, "part type must be text, attachment, file or url")
            }
        }
        return parts
    }

    /// The metadata members of a file part are ignored, but must still have their documented types.
    private static func checkEchoedFileMembers(_ part: JSONObject) throws(ChatError) {
        for key in ["name", "content_type", "url"] where part[key] != nil && part[key]?.stringValue == nil {
            throw ChatError(.invalidRequest, "a file part's \(key) must be a string")
        }
        for key in ["size", "width", "height"] where part[key] != nil && (part[key]?.intValue ?? -1) < 0 {
            throw ChatError(.invalidRequest, "a file part's \(key) must be a non-negative integer")
        }
    }

    /// `invalid_request` naming the first key of `part` that its kind does not have.
    private static func requireOnlyKeys(_ part: JSONObject, _ known: Set<String>, kind: String) throws(ChatError) {
        guard let unknown = part.keys.first(where: { !known.contains($0) }) else { return }
        throw ChatError(.invalidRequest, "a \(kind) part has no key \(unknown) (allowed: \(known.sorted().joined(separator: ", ")))")
    }

    /// A message's `client_id`: absent or null, else 1-512 characters (Unicode scalars, as JSON Schema counts).
    func clientID(_ key: String = "client_id") throws(ChatError) -> String? {
        guard let value = try optionalString(key) else { return nil }
        guard (1...512).contains(value.unicodeScalars.count) else {
            throw ChatError(.invalidRequest, "\(key) must have 1-512 characters")
        }
        return value
    }

    /// An optional URL field (absent keeps, null clears) whose URL must use an allowed scheme.
    func patchLink(_ key: String) throws(ChatError) -> Patch<String?> {
        let patch = try patchString(key)
        if case .set(let url?) = patch { try LinkScheme.check(url, field: key) }
        return patch
    }
}
