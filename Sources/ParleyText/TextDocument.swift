/// A Yjs-compatible collaborative text: one named root text type of a Yjs document, with
/// the YATA conflict resolution of Yjs, so that replicas converge exactly as Yjs and Yrs do.
///
/// Local edits address Unicode scalars; clocks on the wire count UTF-16 code units, as Yjs
/// counts them. Local edits are collected until ``takeLocalUpdate()`` encodes them as one
/// update (one transaction); remote updates are applied with ``applyUpdate(_:)`` in any
/// order, and wait until what they depend on has arrived.
///
/// Surrogate pairs: local positions never split a scalar. A remote update may cut a struct
/// between the two halves of a surrogate pair (only a misbehaving peer does); then both
/// halves become U+FFFD, as Yjs does, so the document always encodes as valid UTF-8.
public struct TextDocument: Sendable {
    /// This replica's client id, which stamps every local insertion.
    public let clientID: UInt64
    /// The name of the root type that holds the text (`doc.get("text")` in Yjs terms).
    public let rootName: String
    let rootNameUTF8: [UInt8]

    /// Per-client stores, indexed by client index.
    var clients: [ClientStore] = []
    var clientIndexByID: [UInt64: Int32] = [:]
    let localClient: Int32

    var items: ContiguousArray<Item> = []
    var freeItems: [Int32] = []
    /// UTF-16 units of all string content, referenced by items.
    var units: [UInt16] = []
    /// The first item of the sequence, or -1.
    var head: Int32 = -1

    /// The position index: chunk storage and the document order of chunks.
    var chunks: [Chunk] = []
    var order: [Int32] = []
    /// A position cache: the order index of a chunk and the visible scalars before it.
    var cursorOrder = 0
    var cursorStart = 0

    /// The number of Unicode scalars in the visible text.
    public internal(set) var count = 0

    /// Structs that wait for clocks they depend on, per client in clock order.
    var pendingQueues: [UInt64: StructQueue] = [:]
    /// Deletions of clocks that have not arrived yet, per client.
    var pendingDeletes: [UInt64: [DeleteRange]] = [:]

    /// The local clock at the last ``takeLocalUpdate()``, and deletions made since.
    var localUpdateClock = 0
    var localDeletes: [DeleteRange] = []

    /// Creates an empty document.
    /// - Parameters:
    ///   - clientID: this replica's id; must be unique among the document's writers.
    ///   - rootName: the root type's name, as peers name it (`doc["text"]` in pycrdt).
    public init(clientID: UInt64, rootName: String = "text") {
        self.clientID = clientID
        self.rootName = rootName
        self.rootNameUTF8 = Array(rootName.utf8)
        clients.append(ClientStore(id: clientID))
        clientIndexByID[clientID] = 0
        localClient = 0
    }

    /// The visible text.
    public var text: String {
        var buffer: [UInt16] = []
        buffer.reserveCapacity(count)
        for chunkIndex in order {
            let chunk = chunks[Int(chunkIndex)]
            for slot in chunk.items.indices where chunk.widths[slot] > 0 {
                let item = items[Int(chunk.items[slot])]
                let start = Int(item.contentStart)
                buffer.append(contentsOf: units[start..<(start + Int(item.length))])
            }
        }
        return String(decoding: buffer, as: UTF16.self)
    }

    /// For each client, the next clock expected from it (clients with nothing are omitted).
    public var stateVector: [UInt64: Int] {
        var vector: [UInt64: Int] = [:]
        for store in clients where store.state > 0 {
            vector[store.id] = store.state
        }
        return vector
    }

    /// Whether some received structs or deletions still wait for clocks that have not arrived.
    public var hasPendingUpdates: Bool {
        !pendingQueues.isEmpty || !pendingDeletes.isEmpty
    }

    /// The number of items (runs) the document holds, deleted ones included; for diagnostics.
    public var itemCount: Int {
        items.count - freeItems.count
    }

    /// The client index for `id`, adding an empty store the first time.
    mutating func clientIndex(for id: UInt64) -> Int32 {
        if let index = clientIndexByID[id] { return index }
        let index = Int32(clients.count)
        clients.append(ClientStore(id: id))
        clientIndexByID[id] = index
        return index
    }
}
