/// Deleting items (with everything inside deleted types), applying delete sets, and the
/// garbage collection Yjs runs at the end of a transaction.
extension YDocument {
    /// Deletes an item; a type's items and current map values are deleted with it. Walks
    /// nested types with a work list, so deep nesting cannot exhaust the stack.
    mutating func deleteItem(_ index: Int32) {
        var work: [Int32] = [index]
        while let current = work.popLast() {
            guard !items[Int(current)].deleted else { continue }
            items[Int(current)].deleted = true
            transactionChanged = true
            deletedInTransaction.append((current, items[Int(current)].endClock))
            if tracksChanges && items[Int(current)].parent >= 0 { changedTypes.insert(items[Int(current)].parent) }
            guard items[Int(current)].kind == .type else { continue }
            let type = types[items[Int(current)].content]
            var child = type.start
            while child >= 0 {
                if !items[Int(child)].deleted { work.append(child) }
                child = items[Int(child)].right
            }
            for value in type.map.values where !items[Int(value)].deleted {
                work.append(value)
            }
        }
    }

    /// Applies what is present of the waiting deletions; keeps the parts not yet seen.
    mutating func applyPendingDeletes() {
        for (clientID, ranges) in pendingDeletes {
            guard let client = clientIndexByID[clientID] else { continue }
            let state = clients[Int(client)].state
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

    /// Deletes the items holding clocks `start..<end` of `client`, splitting at the ends.
    private mutating func deleteClocks(client: Int32, from start: Int, to end: Int) {
        var clock = start
        while clock < end {
            var current = piece(client: client, clock: clock)
            if items[Int(current)].deleted {
                clock = items[Int(current)].endClock
                continue
            }
            if items[Int(current)].clock < clock {
                current = split(current, at: clock - items[Int(current)].clock)
            }
            if items[Int(current)].endClock > end {
                split(current, at: end - items[Int(current)].clock)
            }
            deleteItem(current)
            clock = items[Int(current)].endClock
        }
    }

    /// Yjs `tryGcDeleteSet`: items deleted in this update lose their content (they keep
    /// their place as deleted runs); the items of deleted types become GC ranges.
    mutating func collectGarbage() {
        let deleted = deletedInTransaction
        deletedInTransaction.removeAll()
        for (first, end) in deleted {
            var piece = first
            while piece >= 0 && items[Int(piece)].clock < end {
                if items[Int(piece)].deleted && items[Int(piece)].kind != .gc {
                    collect(piece, parentCollected: false)
                }
                piece = items[Int(piece)].next
            }
        }
    }

    /// Yjs `Item.gc`: drops the content; a collected parent turns the item into GC.
    private mutating func collect(_ index: Int32, parentCollected: Bool) {
        var work: [(item: Int32, parentCollected: Bool)] = [(index, parentCollected)]
        while let (current, inCollected) = work.popLast() {
            let item = items[Int(current)]
            if item.kind == .type {
                let type = item.content
                var child = types[type].start
                while child >= 0 {
                    work.append((child, true))
                    child = items[Int(child)].right
                }
                for value in types[type].map.values {
                    var entry = value
                    while entry >= 0 {
                        work.append((entry, true))
                        entry = items[Int(entry)].left
                    }
                }
                types[type].start = -1
                types[type].map = [:]
                types[type].payload = []
            } else if item.kind != .string && item.kind != .gc && item.kind != .deleted && item.content >= 0 {
                payloads[item.content] = []
            }
            items[Int(current)].deleted = true
            if inCollected {
                items[Int(current)].kind = .gc
                items[Int(current)].parent = -1
                items[Int(current)].parentSub = -1
            } else if item.kind != .gc {
                items[Int(current)].kind = .deleted
            }
            items[Int(current)].content = -1
        }
    }
}
