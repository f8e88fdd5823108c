/// One struct as read from an update, before it is integrated into a document.
struct WireStruct {
    /// What a struct holds; the raw values are not the wire's content refs.
    enum Kind: UInt8 {
        case gc
        case string
        case deleted
    }

    var kind: Kind
    var client: UInt64
    var clock: Int
    var length: Int
    var origin: ItemID?
    var rightOrigin: ItemID?
    /// Where a string's UTF-16 units start in the buffer that came with the struct.
    var textStart: Int
}

/// A range of deleted clocks of one client.
struct DeleteRange: Equatable {
    var client: UInt64
    var clock: Int
    var length: Int
}

/// A fully decoded and validated update: structs in wire order, their text, and the delete set.
struct DecodedUpdate {
    var units: [UInt16] = []
    var structs: [WireStruct] = []
    var deletes: [DeleteRange] = []
}
