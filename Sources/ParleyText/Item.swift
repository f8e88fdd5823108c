/// One run of the sequence: consecutive clocks of one client, stored compactly.
///
/// Items live in one array and refer to each other by index (`Int32`, `-1` for none), so the
/// document holds no per-character objects and no reference counting on hot paths. A struct
/// from the wire may be split into several items ("pieces"); `next` links the pieces in clock
/// order so an id can be found from the first piece of its run.
struct Item {
    /// What an item holds.
    enum Kind: UInt8 {
        /// UTF-16 units in the document's text buffer.
        case string
        /// A deleted run without its content (Yjs `ContentDeleted`).
        case deletedContent
        /// A slot in the free list, not part of the document.
        case free
    }

    var clock: Int
    /// The origin's clock, or -1 when the item has no left origin.
    var originClock: Int
    /// The right origin's clock, or -1 when the item has no right origin.
    var rightOriginClock: Int
    /// Index of the creating client in the document's client table.
    var client: Int32
    var originClient: Int32
    var rightOriginClient: Int32
    /// Length in clocks (UTF-16 units for strings).
    var length: Int32
    /// Number of Unicode scalars of the content (0 for deleted content).
    var scalars: Int32
    /// Start of a string's units in the document's text buffer.
    var contentStart: Int32
    var left: Int32
    var right: Int32
    /// The piece holding the clocks right after this one's, when this item was split.
    var next: Int32
    /// The chunk of the position index holding this item.
    var chunk: Int32
    var kind: Kind
    var deleted: Bool

    var hasOrigin: Bool { originClock >= 0 }
    var hasRightOrigin: Bool { rightOriginClock >= 0 }
    var endClock: Int { clock + Int(length) }
    /// Scalars this item contributes to the visible text.
    var width: Int32 { deleted ? 0 : scalars }
}

/// A block of consecutive items of the position index, with their cached widths.
///
/// The document is a list of chunks; a position is found by summing chunk widths from a
/// cached cursor and then scanning one chunk's width array, never by walking all items.
struct Chunk {
    var items: [Int32] = []
    var widths: [Int32] = []
    var visible: Int = 0

    static let capacity = 64
}

/// The clocks one client has been integrated up to, as runs appended in clock order.
struct ClientStore {
    /// A range of clocks that arrived as one struct (later merged or split freely).
    struct Run {
        var clock: Int
        var length: Int
        /// The first piece holding these clocks, or -1 for a garbage-collected range.
        var first: Int32
    }

    var id: UInt64
    var runs: [Run] = []
    /// The next clock expected from this client (its state-vector entry).
    var state: Int = 0

    /// The index of the run that holds `clock`, which must be below `state`.
    func runIndex(containing clock: Int) -> Int {
        runs.withUnsafeBufferPointer { runs in
            var low = 0
            var high = runs.count - 1
            while low < high {
                let mid = (low + high + 1) >> 1
                if runs[mid].clock <= clock { low = mid } else { high = mid - 1 }
            }
            return low
        }
    }
}
