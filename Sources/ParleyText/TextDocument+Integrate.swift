/// Applying remote updates: the Yjs integration algorithm, pending structs and delete sets.
extension TextDocument {
    /// Applies a Yjs update (format v1) from any peer, in any order.
    ///
    /// The update is decoded and validated completely first; if it is malformed the document
    /// is unchanged and the error says why. Structs whose dependencies have not arrived, and
    /// deletions of clocks not yet seen, are kept and applied when those arrive.
    public mutating func applyUpdate(_ update: [UInt8]) throws(ParleyTextError) {
        var decoded = try UpdateDecoder.decodeUpdate(update, rootName: rootNameUTF8)
        guard units.count + decoded.units.count < Int(Int32.max) else {
            throw .documentTooLarge
        }
        integrate(&decoded)
    }

    mutating func integrate(_ update: inout DecodedUpdate) {
        var queues = pendingQueues
        pendingQueues.removeAll()
        enqueue(update, into: &queues)
        integrateQueues(&queues)
        for (client, var queue) in queues where queue.head < queue.structs.count {
            queue.compactIfMostlyConsumed()
            pendingQueues[client] = queue
        }
        for range in update.deletes {
            pendingDeletes[range.client, default: []].append(range)
        }
        applyPendingDeletes()
        resetCursor()
    }

    /// Adds the update's structs to the per-client queues, keeping each queue in clock order.
    private func enqueue(_ update: DecodedUpdate, into queues: inout [UInt64: StructQueue]) {
        var start = 0
        while start < update.structs.count {
            let client = update.structs[start].client
            var end = start + 1
            while end < update.structs.count && update.structs[end].client == client { end += 1 }
            let group = update.structs[start..<end]
            if queues[client] == nil {
                queues[client] = StructQueue(structs: Array(group), units: update.units)
            } else {
                queues[client]!.append(group, units: update.units)
            }
            start = end
        }
    }

    /// Integrates queue heads whose clocks and dependencies are present until none is left.
    /// Queues are visited highest client first, as Yjs does; the result does not depend on it.
    private mutating func integrateQueues(_ queues: inout [UInt64: StructQueue]) {
        let clientsInOrder = queues.keys.sorted(by: >)
        var progress = true
        while progress {
            progress = false
            for clientID in clientsInOrder {
                guard var queue = queues[clientID], queue.head < queue.structs.count else { continue }
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
                    guard offset >= 0, dependenciesPresent(next, offset: offset) else { break }
                    integrateStruct(next, client: client, offset: offset, units: queue.units)
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

    private func dependenciesPresent(_ value: WireStruct, offset: Int) -> Bool {
        guard value.kind != .gc else { return true }
        // With an offset the left origin becomes the struct's own previous clock.
        if offset == 0, let origin = value.origin, !isPresent(origin) { return false }
        if let rightOrigin = value.rightOrigin, !isPresent(rightOrigin) { return false }
        return true
    }

    private mutating func integrateStruct(_ value: WireStruct, client: Int32, offset: Int, units source: [UInt16]) {
        let clock = value.clock + offset
        let length = value.length - offset
        defer { clients[Int(client)].state = clock + length }
        if value.kind == .gc {
            clients[Int(client)].runs.append(.init(clock: clock, length: length, first: -1))
            return
        }
        var originClient: Int32 = -1
        var originClock = -1
        if offset > 0 {
            originClient = client
            originClock = clock - 1
        } else if let origin = value.origin {
            originClient = clientIndexByID[origin.client]!
            originClock = origin.clock
        }
        var rightOriginClient: Int32 = -1
        var rightOriginClock = -1
        if let rightOrigin = value.rightOrigin {
            rightOriginClient = clientIndexByID[rightOrigin.client]!
            rightOriginClock = rightOrigin.clock
        }
        let left = originClock >= 0 ? cleanEnd(client: originClient, clock: originClock) : -1
        let right = rightOriginClock >= 0 ? cleanStart(client: rightOriginClient, clock: rightOriginClock) : -1
        if left == Self.gcMarker || right == Self.gcMarker {
            // Yjs turns an item whose neighbour was garbage collected into garbage as well.
            clients[Int(client)].runs.append(.init(clock: clock, length: length, first: -1))
            return
        }

        var item = Item(
            clock: clock, originClock: originClock, rightOriginClock: rightOriginClock,
            client: client, originClient: originClient, rightOriginClient: rightOriginClient,
            length: Int32(length), scalars: 0, contentStart: 0, left: -1, right: -1, next: -1,
            chunk: -1, kind: .deletedContent, deleted: true)
        if value.kind == .string {
            let start = units.count
            let from = value.textStart + offset
            units.append(contentsOf: source[from..<(from + length)])
            if offset > 0, UTF8Transcoder.isHighSurrogate(source[from - 1]),
                UTF8Transcoder.isLowSurrogate(source[from])
            {
                units[start] = 0xFFFD
            }
            item.kind = .string
            item.deleted = false
            item.contentStart = Int32(start)
            item.scalars = Int32(UTF8Transcoder.scalarCount(units, from: start, to: start + length))
        }
        let clientID = clients[Int(client)].id
        let place = resolveConflicts(left: left, right: right, item: item, clientID: clientID)
        let index = allocateItem(item)
        linkAfter(place, index)
        clients[Int(client)].runs.append(.init(clock: clock, length: length, first: index))
    }

    /// The YATA rule as Yjs implements it: among the items between the origins, decide which
    /// ones the new item goes after. Returns the item to insert after (-1: the start).
    private func resolveConflicts(left: Int32, right: Int32, item: Item, clientID: UInt64) -> Int32 {
        var left = left
        var current = left >= 0 ? items[Int(left)].right : head
        if current == right { return left }
        var beforeOrigin = Set<Int32>()
        var conflicting = Set<Int32>()
        while current >= 0 && current != right {
            beforeOrigin.insert(current)
            conflicting.insert(current)
            let other = items[Int(current)]
            if other.originClient == item.originClient && other.originClock == item.originClock
                && other.hasOrigin == item.hasOrigin
            {
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
                originItem >= 0, beforeOrigin.contains(originItem)
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

    /// Applies what is present of the waiting deletions; keeps the parts not yet seen.
    private mutating func applyPendingDeletes() {
        for (clientID, ranges) in pendingDeletes {
            guard let client = clientIndexByID[clientID] else { continue }
            let state = clients[Int(client)].state
            // Cheap skip: nothing of this client's waiting ranges has arrived yet.
            guard ranges.contains(where: { $0.clock < state }) else { continue }
            var missing: [DeleteRange] = []
            for range in ranges {
                let end = range.clock + range.length
                if range.clock < state {
                    deleteClocks(client: client, from: range.clock, to: min(end, state))
                }
                if end > state {
                    let start = max(range.clock, state)
                    missing.append(DeleteRange(client: clientID, clock: start, length: end - start))
                }
            }
            pendingDeletes[clientID] = missing.isEmpty ? nil : missing
        }
    }

    private mutating func deleteClocks(client: Int32, from start: Int, to end: Int) {
        var clock = start
        var current: Int32 = -1
        while clock < end {
            if current < 0 || items[Int(current)].clock != clock {
                let store = clients[Int(client)]
                let run = store.runs[store.runIndex(containing: clock)]
                if run.first < 0 {
                    clock = run.clock + run.length
                    current = -1
                    continue
                }
                current = piece(client: client, clock: clock)
            }
            if !items[Int(current)].deleted {
                if clock > items[Int(current)].clock {
                    current = split(current, atUnit: clock - items[Int(current)].clock)
                }
                if items[Int(current)].endClock > end {
                    split(current, atUnit: end - items[Int(current)].clock)
                }
                markDeleted(current)
                current = mergeDeletedNeighbours(current)
            }
            clock = items[Int(current)].endClock
            current = items[Int(current)].next
        }
    }
}
