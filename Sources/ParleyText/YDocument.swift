/// A Yjs document of any content, as a server replica holds it: every struct and content
/// kind of update format v1, any number of root types with any names, nested types, map
/// keys, subdocuments (kept as their guid and options), the delete set, and garbage
/// collection as Yjs performs it.
///
/// It integrates updates from any peer in any order (structs and deletions whose
/// dependencies have not arrived wait, as in Yjs) and encodes state vectors and updates of
/// the whole document. A client replica also edits it locally (texts, maps and arrays of
/// values under any root, see `YDocument+Editing.swift`), stamped with its ``localClientID``.
public struct YDocument: Sendable {
    /// Per-client stores, indexed by client index.
    var clients: [ClientStore] = []
    var clientIndexByID: [UInt64: Int32] = [:]

    var items: ContiguousArray<YItem> = []
    /// UTF-16 units of all string content, referenced by items.
    var units: [UInt16] = []
    /// Content bytes of items other than strings, types and deleted runs.
    var payloads: [[UInt8]] = []
    var types: [YType] = []
    var rootIndexByName: [String: Int32] = [:]
    var keys: [String] = []
    var keyIndexByName: [String: Int32] = [:]

    /// Structs that wait for clocks they depend on, per client in clock order.
    var pendingQueues: [UInt64: YStructQueue] = [:]
    /// Deletions of clocks that have not arrived yet, per client.
    var pendingDeletes: [UInt64: [DeleteRange]] = [:]
    /// The updates that left something waiting, as received, while anything waits.
    public internal(set) var pendingUpdates: [[UInt8]] = []

    /// Items deleted during the update being applied, with the end of the clocks deleted,
    /// garbage-collected when it completes.
    var deletedInTransaction: [(item: Int32, end: Int)] = []
    /// Whether the update being applied changed anything.
    var transactionChanged = false

    /// The client id that stamps local edits (0 for a replica that never edits).
    public internal(set) var localClientID: UInt64 = 0
    /// The local clock at the last ``takeLocalUpdate()``, and deletions made since.
    var localUpdateClock = 0
    var localDeletes: [DeleteRange] = []
    /// Whether changed types are recorded in ``changedTypes`` (client replicas that report
    /// which roots changed; the server does not pay for it).
    public var tracksChanges = false
    /// The types changed since ``takeChangedRoots()``, when ``tracksChanges`` is on.
    var changedTypes: Set<Int32> = []

    /// Creates an empty document.
    public init() {}

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
        pendingQueues.values.contains { $0.remaining > 0 } || !pendingDeletes.isEmpty
    }

    /// The names of the root types that hold or held content, sorted.
    public var rootNames: [String] {
        rootIndexByName.keys.sorted()
    }

    /// The number of structs (pieces) held, for diagnostics.
    public var structCount: Int { items.count }

    /// The client index for `id`, adding an empty store the first time.
    mutating func clientIndex(for id: UInt64) -> Int32 {
        if let index = clientIndexByID[id] { return index }
        let index = Int32(clients.count)
        clients.append(ClientStore(id: id))
        clientIndexByID[id] = index
        return index
    }

    /// The root type called `name`, created empty the first time (Yjs `doc.get(name)`).
    mutating func rootType(named name: String) -> Int32 {
        if let index = rootIndexByName[name] { return index }
        let index = Int32(types.count)
        types.append(YType(item: -1, name: name))
        rootIndexByName[name] = index
        return index
    }

    /// The index of map key `key`, interned the first time.
    mutating func keyIndex(for key: String) -> Int32 {
        if let index = keyIndexByName[key] { return index }
        let index = Int32(keys.count)
        keys.append(key)
        keyIndexByName[key] = index
        return index
    }

    mutating func allocate(_ item: YItem) -> Int32 {
        items.append(item)
        return Int32(items.count - 1)
    }
}
