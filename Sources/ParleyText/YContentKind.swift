/// The content of a Yjs struct, numbered as the wire's content refs (`info & 0x1F`).
public enum YContentKind: UInt8, Sendable {
    /// A garbage-collected range (a `GC` struct, not an item).
    case gc = 0
    /// A deleted run whose content was dropped (`ContentDeleted`).
    case deleted = 1
    /// JSON-encoded strings, one per element (`ContentJSON`, old Yjs arrays).
    case json = 2
    /// One binary blob (`ContentBinary`).
    case binary = 3
    /// Text (`ContentString`), one clock per UTF-16 unit.
    case string = 4
    /// One embedded JSON value in a text (`ContentEmbed`).
    case embed = 5
    /// A formatting mark in a text, key and JSON value (`ContentFormat`).
    case format = 6
    /// A nested shared type (`ContentType`).
    case type = 7
    /// lib0 "any" values, one per element (`ContentAny`).
    case any = 8
    /// A subdocument: its guid and options (`ContentDoc`).
    case doc = 9

    /// Whether two neighbouring runs of this kind can be written as one struct.
    var isMergeable: Bool {
        switch self {
        case .gc, .deleted, .json, .string, .any: true
        default: false
        }
    }

    /// Whether the content counts towards the length of a sequence (formats do not).
    var isCountable: Bool {
        switch self {
        case .gc, .deleted, .format: false
        default: true
        }
    }
}

/// The kinds of nested shared types, numbered as the wire's type refs.
public enum YTypeKind: UInt8, Sendable {
    case array = 0
    case map = 1
    case text = 2
    case xmlElement = 3
    case xmlFragment = 4
    case xmlHook = 5
    case xmlText = 6
}
