/// One struct of a generic Yjs document: an item of some shared type, or a
/// garbage-collected range (`kind == .gc`).
///
/// Items live in one array of the document and refer to each other and to their types by
/// index (`-1` for none). A struct from the wire may be split into pieces; `next` links the
/// pieces of a client's clocks in order, so an id is found from the run it arrived in.
struct YItem {
    var clock: Int
    var length: Int
    /// Index of the creating client in the document's client table.
    var client: Int32
    var kind: YContentKind
    var deleted: Bool
    /// The left origin (client index and clock), or -1 for none.
    var originClient: Int32 = -1
    var originClock: Int = -1
    /// The right origin (client index and clock), or -1 for none.
    var rightOriginClient: Int32 = -1
    var rightOriginClock: Int = -1
    /// The type this item belongs to (index into the document's types), -1 for GC.
    var parent: Int32 = -1
    /// The map key this item sets (index into the document's keys), or -1 in a sequence.
    var parentSub: Int32 = -1
    var left: Int32 = -1
    var right: Int32 = -1
    /// The piece holding the clocks right after this one's.
    var next: Int32 = -1
    /// Strings: where the units start in the document's text buffer; types: the type
    /// index; deleted and GC: unused; everything else: the index of its payload bytes.
    var content: Int = -1

    var endClock: Int { clock + length }
    var hasOrigin: Bool { originClock >= 0 }
    var hasRightOrigin: Bool { rightOriginClock >= 0 }
}

/// A shared type of a generic document: a root (by name) or one nested in an item.
struct YType {
    /// The item holding this type, or -1 for a root type.
    var item: Int32 = -1
    /// The root name (roots only).
    var name: String = ""
    /// The first item of the type's sequence, or -1.
    var start: Int32 = -1
    /// For each map key, the key's current (rightmost) item.
    var map: [Int32: Int32] = [:]
    /// The type's content bytes as the wire carries them (type ref, and the node name of
    /// an XML element or hook); empty for roots.
    var payload: [UInt8] = []

    /// The kind of a nested type (nil for roots, whose kind only their readers know).
    var kind: YTypeKind? { payload.first.flatMap(YTypeKind.init(rawValue:)) }
}

/// Received structs of one client, in clock order, consumed from `head` as they integrate.
struct YStructQueue {
    var structs: [YWireStruct] = []
    var head = 0

    var remaining: Int { structs.count - head }

    /// Adds structs, keeping clock order and dropping exact repeats of waiting ones.
    mutating func add(_ group: ArraySlice<YWireStruct>) {
        if head > 0 && head * 2 >= structs.count {
            structs.removeFirst(head)
            head = 0
        }
        let waiting = Set(structs[head...].map { $0.clock })
        var sorted = true
        for value in group {
            if waiting.contains(value.clock),
                structs[head...].contains(where: { $0.clock == value.clock && $0.length == value.length })
            {
                continue
            }
            if let last = structs.last, structs.count > head, last.clock > value.clock { sorted = false }
            structs.append(value)
        }
        if !sorted { structs[head...].sort { $0.clock < $1.clock } }
    }
}
