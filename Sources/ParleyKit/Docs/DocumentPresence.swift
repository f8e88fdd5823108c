import ParleyWireCore

/// What a client tells the others about itself in the document's awareness: its user and
/// its cursor. On the wire it is the y-protocols awareness state, JSON:
/// `{"user":{"id":…,"name":…,"color":…},"cursor":{"anchor":P,"head":P}}`, as Yjs editor
/// bindings write it. A document session writes each P as a Yjs relative position (JSON, so
/// the cursor follows the text on every replica) and reads those or plain scalar positions.
/// Unknown fields are ignored, so other Yjs clients' states still show a name.
public struct DocumentPresence: Sendable, Hashable {
    /// The user's id, when known.
    public var userID: String?
    /// The name to show.
    public var name: String
    /// A display colour (`#rrggbb`), when chosen.
    public var color: String?
    /// The cursor or selection, or nil when the user has none in the text.
    public var selection: DocumentSelection?

    /// Creates a presence.
    public init(userID: String? = nil, name: String, color: String? = nil, selection: DocumentSelection? = nil) {
        self.userID = userID
        self.name = name
        self.color = color
        self.selection = selection
    }

    /// The awareness state JSON, the selection as plain scalar positions.
    public var json: String {
        json(cursor: selection.map { .object(["anchor": .int($0.anchor), "head": .int($0.head)]) })
    }

    /// The awareness state JSON with `cursor` as given.
    func json(cursor: JSONValue?) -> String {
        var user: JSONObject = ["name": .string(name)]
        if let userID { user.append("id", .string(userID)) }
        if let color { user.append("color", .string(color)) }
        var state: JSONObject = ["user": .object(user)]
        if let cursor { state.append("cursor", cursor) }
        return JSONWriter.string(.object(state))
    }

    /// Reads an awareness state; nil when it is not a JSON object. A state without a user
    /// gets an empty name; a cursor whose ends are not non-negative integers is left out.
    public init?(json: String) {
        self.init(json: json) { $0.intValue.flatMap { $0 >= 0 ? $0 : nil } }
    }

    /// Reads an awareness state, turning each end of the cursor into a position with `resolve`.
    init?(json: String, resolve: (JSONValue) -> Int?) {
        let value: JSONValue
        do { value = try JSONParser.parse(Array(json.utf8)) } catch {
            return nil  // a peer's malformed state: documented as nil, the caller skips that peer
        }
        guard value.objectValue != nil else { return nil }
        let user = value["user"]
        name = user?["name"]?.stringValue ?? ""
        userID = user?["id"]?.stringValue
        color = user?["color"]?.stringValue
        if let anchor = value["cursor"]?["anchor"].flatMap(resolve), let head = value["cursor"]?["head"].flatMap(resolve) {
            selection = DocumentSelection(anchor: anchor, head: head)
        } else {
            selection = nil
        }
    }
}
