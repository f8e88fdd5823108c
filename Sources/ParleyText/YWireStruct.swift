/// Where a struct read from an update says it belongs, when it says so (structs with an
/// origin take their parent from their neighbours).
enum YWireParent: Equatable {
    case none
    /// A root type, by name (`doc.get(name)`).
    case root(String)
    /// The nested type held by the item with this id.
    case item(ItemID)
}

/// One struct as read from an update of a generic Yjs document, before integration.
///
/// Content other than text is kept as the exact bytes the wire carried after the info
/// byte's fields (for JSON and "any" content: the elements, without their count), so it
/// is written back unchanged.
struct YWireStruct {
    var kind: YContentKind
    var client: UInt64
    var clock: Int
    var length: Int
    var origin: ItemID?
    var rightOrigin: ItemID?
    var parent: YWireParent
    var parentSub: String?
    /// A string's UTF-16 units.
    var units: [UInt16] = []
    /// Every other content's bytes.
    var payload: [UInt8] = []
}

/// A decoded and validated update of a generic document: structs in wire order and the
/// delete set.
struct YDecodedUpdate {
    var structs: [YWireStruct] = []
    var deletes: [DeleteRange] = []
}
