/// Applying remote updates: the Yjs integration algorithm for every kind of parent,
/// pending structs and deletions, and the garbage collection that ends each update.
extension YDocument {
    /// Applies a Yjs update (format v1) from any peer, in any order; returns whether it
    /// changed the document (integrated or deleted something, or left new structs or
    /// deletions waiting for what they depend on).
    ///
    /// The update is decoded and validated completely first; if it is malformed the
    /// document is unchanged and the error says why.
    @discardableResult
    public mutating func applyUpdate(_ update: [UInt8]) throws(ParleyTextError) -> Bool {
        let decoded = try YUpdateDecoder.decode(update)
        let stringUnits = decoded.structs.reduce(0) { $0 + $1.units.count }
        guard units.count + stringUnits < Int(Int32.max) else { throw .documentTooLarge }
        transactionChanged = false
        let pendingBefore = pendingStructCount
        let pendingDeletesBefore = pendingDeleteLength
        var queues = pendingQueues
        pendingQueues.removeAll()
        enqueue(decoded.structs, into: &queues)
        integrateQueues(&queues)
        for (client, queue) in queues where queue.remaining > 0 {
            pendingQueues[client] = queue
        }
        for range in decoded.deletes {
            pendingDeletes[range.client, default: []].append(range)
        }
        applyPendingDeletes()
        collectGarbage()
        let leftWaiting = pendingStructCount > pendingBefore || pendingDeleteLength > pendingDeletesBefore
        if leftWaiting { transactionChanged = true }
        if !hasPendingUpdates {
            pendingUpdates.removeAll()
        } else if leftWaiting {
            pendingUpdates.append(update)
        }
        return transactionChanged
    }

    private var pendingStructCount: Int {
        pendingQueues.values.reduce(0) { $0 + $1.remaining }
    }

    private var pendingDeleteLength: Int {
        pendingDeletes.values.reduce(0) { total, ranges in ranges.reduce(total) { $0 + $1.length } }
    }

    /// Adds structs to the per-client queues, leaving out what is already integrated.
    private func enqueue(_ structs: [YWireStruct], into queues: inout [UInt64: YStructQueue]) {
        var start = 0
        while start < structs.count {
            let client = structs[start].client
            var end = start + 1
            while end < structs.count && structs[end].client == client { end += 1 }
            let state = clientIndexByID[client].map { clients[Int($0)].state } ?? 0
            let fresh = structs[start..<end].filter { $0.clock + $0.length > state }
            if !fresh.isEmpty { queues[client, default: YStructQueue()].add(fresh[...]) }
            start = end
        }
    }

    /// Integrates queue heads whose clocks and dependencies are present until none is left.
    /// Queues are visited highest client first, as Yjs does.
    private mutating func integrateQueues(_ queues: inout [UInt64: YStructQueue]) {
        let clientsInOrder = queues.keys.sorted(by: >)
        var progress = true
        while progress {
            progress = false
            for clientID in clientsInOrder {
                guard var queue = queues[clientID], queue.remaining > 0 else { continue }
                queues[clientID] = nil  // hold the queue uniquely while integrating from it
                let client = clientIndex(for: clientID)
                while queue.head < queue.structs.count {
                    let next = queue.structs[queue.head]
                    let state = clients[Int(client)].state
                    if next.clock + next.length <= state {
                        queue.head += 1
                        continue
                    }
                    let offset = state - next.clock
                    guard offset >= 0, dependenciesPresent(next) else { break }
                    integrateStruct(next, client: client, offset: offset)
                    queue.head += 1
                    progress = true
                }
                queues[clientID] = queue
            }
        }
    }

    private func isPresent(_ id: ItemID) -> Bool {
        guard let client = clientIndexByID[id.client] else { return false }
        return id.clock < clients[Int(client)].state
    }

    private func dependenciesPresent(_ value: YWireStruct) -> Bool {
        guard value.kind != .gc else { return true }
        if let origin = value.origin, !isPresent(origin) { return false }
        if let rightOrigin = value.rightOrigin, !isPresent(rightOrigin) { return false }
        if case .item(let parent) = value.parent, !isPresent(parent) { return false }
        return true
    }

    /// Adds a garbage-collected range of `client`'s clocks.
    private mutating func appendGC(client: Int32, clock: Int, length: Int) {
        let index = allocate(YItem(clock: clock, length: length, client: client, kind: .gc, deleted: true))
        appendRun(client: client, clock: clock, length: length, first: index)
    }

    private mutating func appendRun(client: Int32, clock: Int, length: Int, first: Int32) {
        let store = Int(client)
        if let last = clients[store].runs.last, last.first >= 0 {
            items[Int(lastPiece(of: last))].next = first
        }
        clients[store].runs.append(.init(clock: clock, length: length, first: first))
    }

    /// The last piece of a run (runs are linked to each other through `next` as well).
    private func lastPiece(of run: ClientStore.Run) -> Int32 {
        var piece = run.first
        while items[Int(piece)].endClock < run.clock + run.length { piece = items[Int(piece)].next }
        return piece
    }

    mutating func integrateStruct(_ value: YWireStruct, client: Int32, offset: Int) {
        let clock = value.clock + offset
        let length = value.length - offset
        transactionChanged = true
        defer { clients[Int(client)].state = clock + length }
        guard value.kind != .gc else {
            appendGC(client: client, clock: clock, length: length)
            return
        }
        var item = YItem(clock: clock, length: length, client: client, kind: value.kind, deleted: false)
        var left: Int32 = -1
        var right: Int32 = -1
        if offset > 0 {
            item.originClient = client
            item.originClock = clock - 1
            left = cleanEnd(client: client, clock: clock - 1)
        } else if let origin = value.origin {
            item.originClient = clientIndexByID[origin.client]!
            item.originClock = origin.clock
            left = cleanEnd(client: item.originClient, clock: origin.clock)
        }
        if let rightOrigin = value.rightOrigin {
            item.rightOriginClient = clientIndexByID[rightOrigin.client]!
            item.rightOriginClock = rightOrigin.clock
            right = cleanStart(client: item.rightOriginClient, clock: rightOrigin.clock)
        }
        guard resolveParent(of: &item, wire: value, left: left, right: right) else {
            // Yjs turns an item whose neighbour or parent was garbage collected into garbage.
            appendGC(client: client, clock: clock, length: length)
            return
        }
        storeContent(of: value, offset: offset, in: &item)
        if tracksChanges { changedTypes.insert(item.parent) }
        let place =
            needsConflictScan(item, left: left, right: right)
            ? resolveConflicts(item, left: left, right: right) : left
        let index = allocate(item)
        link(index, after: place)
        appendRun(client: client, clock: clock, length: length, first: index)
        if item.kind == .type {
            types.append(YType(item: index, payload: value.payload))
            items[Int(index)].content = types.count - 1
        } else if item.kind == .deleted {
            items[Int(index)].deleted = true
            deletedInTransaction.append((index, clock + length))
        }
        let holder = types[Int(item.parent)].item
        if (holder >= 0 && items[Int(holder)].deleted) || (item.parentSub >= 0 && items[Int(index)].right >= 0) {
            deleteItem(index)
        }
    }

    /// Sets the item's parent and map key from the wire or from its neighbours; false when
    /// it must become garbage (a neighbour or the parent was collected, or the parent is
    /// not a type).
    private mutating func resolveParent(of item: inout YItem, wire: YWireStruct, left: Int32, right: Int32) -> Bool {
        if (left >= 0 && items[Int(left)].kind == .gc) || (right >= 0 && items[Int(right)].kind == .gc) {
            return false
        }
        switch wire.parent {
        case .none:
            let neighbour = left >= 0 ? left : right
            guard neighbour >= 0 else { return false }
            item.parent = items[Int(neighbour)].parent
            item.parentSub = items[Int(neighbour)].parentSub
            return item.parent >= 0
        case .root(let name):
            item.parent = rootType(named: name)
        case .item(let id):
            let holder = items[Int(piece(client: clientIndexByID[id.client]!, clock: id.clock))]
            guard holder.kind == .type else { return false }
            item.parent = Int32(holder.content)
        }
        if let key = wire.parentSub { item.parentSub = keyIndex(for: key) }
        return true
    }

    /// Copies the struct's content (from `offset` on) into the document's storage.
    private mutating func storeContent(of value: YWireStruct, offset: Int, in item: inout YItem) {
        switch value.kind {
        case .string:
            let start = units.count
            units.append(contentsOf: value.units[offset...])
            if offset > 0, UTF8Transcoder.isHighSurrogate(value.units[offset - 1]),
                UTF8Transcoder.isLowSurrogate(value.units[offset])
            {
                units[start] = 0xFFFD
            }
            item.content = start
        case .json, .any:
            let cut = offset > 0 ? Self.elementOffset(of: offset, in: value.payload, kind: value.kind) : 0
            payloads.append(cut > 0 ? Array(value.payload[cut...]) : value.payload)
            item.content = payloads.count - 1
        case .type:
            break  // kept with the type, which integration creates
        case .binary, .embed, .format, .doc:
            payloads.append(value.payload)
            item.content = payloads.count - 1
        case .gc, .deleted:
            break
        }
    }

    private func needsConflictScan(_ item: YItem, left: Int32, right: Int32) -> Bool {
        if left < 0 { return right < 0 || items[Int(right)].left >= 0 }
        return items[Int(left)].right != right
    }

    /// The first item of the sequence (or map key) the item goes into.
    private func firstItem(in parent: Int32, key: Int32) -> Int32 {
        if key < 0 { return types[Int(parent)].start }
        var first = types[Int(parent)].map[key] ?? -1
        while first >= 0 && items[Int(first)].left >= 0 { first = items[Int(first)].left }
        return first
    }

    /// The YATA rule as Yjs implements it: among the items between the origins, decide
    /// which ones the new item goes after. Returns the item to insert after (-1: the start).
    private func resolveConflicts(_ item: YItem, left: Int32, right: Int32) -> Int32 {
        var left = left
        var current = left >= 0 ? items[Int(left)].right : firstItem(in: item.parent, key: item.parentSub)
        let clientID = clients[Int(item.client)].id
        var beforeOrigin = Set<Int32>()
        var conflicting = Set<Int32>()
        while current >= 0 && current != right {
            beforeOrigin.insert(current)
            conflicting.insert(current)
            let other = items[Int(current)]
            if other.originClient == item.originClient && other.originClock == item.originClock {
                if clients[Int(other.client)].id < clientID {
                    left = current
                    conflicting.removeAll()
                } else if other.rightOriginClient == item.rightOriginClient
                    && other.rightOriginClock == item.rightOriginClock
                {
                    break
                }
            } else if other.hasOrigin,
                case let originItem = piece(client: other.originClient, clock: other.originClock),
                beforeOrigin.contains(originItem)
            {
                if !conflicting.contains(originItem) {
                    left = current
                    conflicting.removeAll()
                }
            } else {
                break
            }
            current = other.right
        }
        return left
    }

    /// Links `index` after `left` (-1: first of its sequence or map key), updating the
    /// parent's start or current map value; a new current value deletes the previous one.
    private mutating func link(_ index: Int32, after left: Int32) {
        let item = items[Int(index)]
        var right: Int32
        if left >= 0 {
            right = items[Int(left)].right
            items[Int(left)].right = index
        } else {
            right = firstItem(in: item.parent, key: item.parentSub)
            if item.parentSub < 0 { types[Int(item.parent)].start = index }
        }
        items[Int(index)].left = left
        items[Int(index)].right = right
        if right >= 0 {
            items[Int(right)].left = index
        } else if item.parentSub >= 0 {
            types[Int(item.parent)].map[item.parentSub] = index
            if left >= 0 { deleteItem(left) }
        }
    }
}
