import ParleyText
import ParleyWireCore

/// Cursor ends on the wire as Yjs relative positions (`Y.relativePositionToJSON`), so Yjs
/// editor bindings and other replicas place them on the same character as the text changes.
extension StickyPosition {
    /// The Yjs relative position, associated to the left (`assoc: -1`): after the item, or
    /// the start of the root type `rootName`.
    func yjsJSON(rootName: String) -> JSONValue {
        switch self {
        case .start:
            return .object(["tname": .string(rootName), "assoc": .int(-1)])
        case .after(let id):
            return .object([
                "item": .object(["client": .number(String(id.client)), "clock": .int(id.clock)]),
                "assoc": .int(-1)
            ])
        }
    }

    /// The scalar position a cursor end means in `document`: a plain non-negative integer, or
    /// a Yjs relative position. An item this replica has not seen (or garbage) gives nil.
    static func resolve(_ value: JSONValue, in document: YDocument) -> Int? {
        if let plain = value.intValue { return plain >= 0 ? min(plain, document.count) : nil }
        guard value.objectValue != nil else { return nil }
        let assoc = value["assoc"]?.intValue ?? 0
        guard let item = value["item"], item.objectValue != nil else {
            return assoc < 0 ? 0 : document.count
        }
        guard let clientText = item["client"], case .number(let digits) = clientText, let client = UInt64(digits),
            let clock = item["clock"]?.intValue,
            let found = document.scalarPosition(of: ItemID(client: client, clock: clock), inText: DocumentReplica.textRoot)
        else { return nil }
        if found.isDeleted || assoc >= 0 { return found.position }
        return min(found.position + 1, document.count)
    }
}
