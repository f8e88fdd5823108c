/// The position index (chunks of items with cached scalar widths) and the list surgery that
/// keeps it in step with the item list: linking, splitting, changing an item's width.
extension TextDocument {
    static let gcMarker: Int32 = -2

    mutating func allocateItem(_ item: Item) -> Int32 {
        if let slot = freeItems.popLast() {
            items[Int(slot)] = item
            return slot
        }
        items.append(item)
        return Int32(items.count - 1)
    }

    /// The slot of `item` inside its chunk.
    func slot(of item: Int32, in chunk: Int) -> Int {
        chunks[chunk].items.withUnsafeBufferPointer { members in
            var slot = 0
            while members[slot] != item { slot += 1 }
            return slot
        }
    }

    /// Links `new` into the sequence right after `left` (-1: at the start) and into the index.
    mutating func linkAfter(_ left: Int32, _ new: Int32) {
        let right = left >= 0 ? items[Int(left)].right : head
        items[Int(new)].left = left
        items[Int(new)].right = right
        if left >= 0 { items[Int(left)].right = new } else { head = new }
        if right >= 0 { items[Int(right)].left = new }

        let chunk: Int
        let position: Int
        if left >= 0 {
            chunk = Int(items[Int(left)].chunk)
            position = slot(of: left, in: chunk) + 1
        } else {
            if order.isEmpty {
                chunks.append(Chunk())
                order.append(Int32(chunks.count - 1))
            }
            chunk = Int(order[0])
            position = 0
        }
        insert(new, into: chunk, at: position)
    }

    private mutating func insert(_ item: Int32, into chunk: Int, at position: Int) {
        let width = items[Int(item)].width
        items[Int(item)].chunk = Int32(chunk)
        chunks[chunk].items.insert(item, at: position)
        chunks[chunk].widths.insert(width, at: position)
        chunks[chunk].visible += Int(width)
        count += Int(width)
        if chunks[chunk].items.count > Chunk.capacity {
            splitChunk(chunk)
        }
    }

    /// Moves the second half of a full chunk into a new chunk placed right after it.
    private mutating func splitChunk(_ chunk: Int) {
        let half = chunks[chunk].items.count / 2
        var moved = Chunk()
        moved.items = Array(chunks[chunk].items[half...])
        moved.widths = Array(chunks[chunk].widths[half...])
        chunks[chunk].items.removeSubrange(half...)
        chunks[chunk].widths.removeSubrange(half...)
        var visible = 0
        for width in moved.widths { visible += Int(width) }
        moved.visible = visible
        chunks[chunk].visible -= visible
        let newChunk = Int32(chunks.count)
        for item in moved.items { items[Int(item)].chunk = newChunk }
        chunks.append(moved)
        let orderIndex = order.firstIndex(of: Int32(chunk))!
        order.insert(newChunk, at: orderIndex + 1)
        // The cursor caches the scalars before a chunk; that sum is unchanged, only indexes shift.
        if cursorOrder > orderIndex { cursorOrder += 1 }
    }

    /// Sets the cached width of `item` from its current state.
    mutating func refreshWidth(of item: Int32) {
        let chunk = Int(items[Int(item)].chunk)
        let position = slot(of: item, in: chunk)
        let width = items[Int(item)].width
        let delta = Int(width) - Int(chunks[chunk].widths[position])
        guard delta != 0 else { return }
        chunks[chunk].widths[position] = width
        chunks[chunk].visible += delta
        count += delta
    }

    mutating func markDeleted(_ item: Int32) {
        guard !items[Int(item)].deleted else { return }
        items[Int(item)].deleted = true
        refreshWidth(of: item)
    }

    /// Splits `item` after `offset` clocks; returns the new right piece.
    ///
    /// A split between the halves of a surrogate pair turns both halves into U+FFFD.
    @discardableResult
    mutating func split(_ item: Int32, atUnit offset: Int) -> Int32 {
        var left = items[Int(item)]
        var rightScalars: Int32 = 0
        if left.kind == .string {
            let start = Int(left.contentStart)
            let end = start + Int(left.length)
            if UTF8Transcoder.isHighSurrogate(units[start + offset - 1])
                && UTF8Transcoder.isLowSurrogate(units[start + offset])
            {
                units[start + offset - 1] = 0xFFFD
                units[start + offset] = 0xFFFD
            }
            if left.scalars == left.length {
                left.scalars = Int32(offset)
                rightScalars = left.length - Int32(offset)
            } else {
                left.scalars = Int32(UTF8Transcoder.scalarCount(units, from: start, to: start + offset))
                rightScalars = Int32(UTF8Transcoder.scalarCount(units, from: start + offset, to: end))
            }
        }
        let right = Item(
            clock: left.clock + offset, originClock: left.clock + offset - 1,
            rightOriginClock: left.rightOriginClock, client: left.client, originClient: left.client,
            rightOriginClient: left.rightOriginClient, length: left.length - Int32(offset),
            scalars: rightScalars,
            contentStart: left.kind == .string ? left.contentStart + Int32(offset) : 0,
            left: item, right: left.right, next: left.next, chunk: left.chunk,
            kind: left.kind, deleted: left.deleted)
        left.length = Int32(offset)
        let newIndex = allocateItem(right)
        left.next = newIndex
        left.right = newIndex
        items[Int(item)] = left
        if right.right >= 0 { items[Int(right.right)].left = newIndex }

        if left.kind == .deletedContent {
            repointRuns(from: item, to: newIndex, clocks: right.clock..<right.endClock, client: Int(left.client))
        }

        let chunk = Int(left.chunk)
        let position = slot(of: item, in: chunk)
        let oldWidth = chunks[chunk].widths[position]
        chunks[chunk].widths[position] = left.width
        chunks[chunk].visible += Int(left.width) - Int(oldWidth)
        count += Int(left.width) - Int(oldWidth)
        insert(newIndex, into: chunk, at: position + 1)
        return newIndex
    }

    /// Finds the visible item holding scalar number `position - 1` (position in 1...count),
    /// and how many of its scalars come up to and including that one (1...width).
    mutating func locate(_ position: Int) -> (item: Int32, scalars: Int) {
        var orderIndex = cursorOrder
        var start = cursorStart
        if orderIndex >= order.count {
            orderIndex = 0
            start = 0
        }
        while orderIndex > 0 && position <= start {
            orderIndex -= 1
            start -= chunks[Int(order[orderIndex])].visible
        }
        while position > start + chunks[Int(order[orderIndex])].visible {
            start += chunks[Int(order[orderIndex])].visible
            orderIndex += 1
        }
        cursorOrder = orderIndex
        cursorStart = start
        let chunk = Int(order[orderIndex])
        var accumulated = start
        return chunks[chunk].widths.withUnsafeBufferPointer { widths in
            var slot = 0
            while accumulated + Int(widths[slot]) < position {
                accumulated += Int(widths[slot])
                slot += 1
            }
            return (chunks[chunk].items[slot], position - accumulated)
        }
    }

    /// Forgets the position cache (after edits whose place in chunk order is unknown).
    mutating func resetCursor() {
        cursorOrder = 0
        cursorStart = 0
    }

    /// The UTF-16 offset inside `item` of its scalar number `scalars`.
    func unitOffset(ofScalar scalars: Int, in item: Int32) -> Int {
        let value = items[Int(item)]
        if value.scalars == value.length { return scalars }
        let start = Int(value.contentStart)
        return UTF8Transcoder.unitOffset(ofScalar: scalars, in: units, from: start, to: start + Int(value.length))
    }

    // MARK: - Finding ids

    /// The item holding `clock` of client `client` (which must be below its state), or
    /// ``gcMarker`` when that clock was garbage collected.
    func piece(client: Int32, clock: Int) -> Int32 {
        let run = clients[Int(client)].runs[clients[Int(client)].runIndex(containing: clock)]
        if run.first < 0 { return Self.gcMarker }
        var piece = run.first
        while items[Int(piece)].endClock <= clock { piece = items[Int(piece)].next }
        return piece
    }

    /// The item that ends exactly at `clock`, splitting as needed (Yjs `getItemCleanEnd`).
    mutating func cleanEnd(client: Int32, clock: Int) -> Int32 {
        let found = piece(client: client, clock: clock)
        if found < 0 { return found }
        let item = items[Int(found)]
        if clock < item.endClock - 1 {
            split(found, atUnit: clock - item.clock + 1)
        }
        return found
    }

    /// The item that starts exactly at `clock`, splitting as needed (Yjs `getItemCleanStart`).
    mutating func cleanStart(client: Int32, clock: Int) -> Int32 {
        let found = piece(client: client, clock: clock)
        if found < 0 { return found }
        let item = items[Int(found)]
        if clock > item.clock {
            return split(found, atUnit: clock - item.clock)
        }
        return found
    }
}

extension TextDocument {
    /// Merges a just-deleted item with deleted neighbours that Yjs would merge it with, so that
    /// deleting character by character does not leave one item per character. Returns the
    /// item that now holds `item`'s clocks.
    mutating func mergeDeletedNeighbours(_ item: Int32) -> Int32 {
        var survivor = item
        let left = items[Int(item)].left
        if left >= 0 && canMergeDeleted(left, item) {
            absorb(item, into: left)
            survivor = left
        }
        let right = items[Int(survivor)].right
        if right >= 0 && canMergeDeleted(survivor, right) {
            absorb(right, into: survivor)
        }
        return survivor
    }

    /// Whether deleted `right` continues deleted `left` as Yjs `Item.mergeWith` requires
    /// (and both sit in one chunk, which keeps the index update local).
    private func canMergeDeleted(_ left: Int32, _ right: Int32) -> Bool {
        let a = items[Int(left)]
        let b = items[Int(right)]
        return a.deleted && b.deleted && a.client == b.client && a.endClock == b.clock
            && a.right == right && a.chunk == b.chunk
            && b.originClient == a.client && b.originClock == a.endClock - 1
            && b.rightOriginClient == a.rightOriginClient && b.rightOriginClock == a.rightOriginClock
            && Int(a.length) + Int(b.length) <= TextLimits.maxStructLength
    }

    /// Keeps each run's `first` on the item that holds the run's first clock: runs starting in
    /// `clocks` that name `old` name `new` afterwards. Only items merged across runs (always
    /// deleted content) can hold the start of more than one run.
    mutating func repointRuns(from old: Int32, to new: Int32, clocks: Range<Int>, client: Int) {
        var run = clients[client].runIndex(containing: clocks.lowerBound)
        while run < clients[client].runs.count && clients[client].runs[run].clock < clocks.upperBound {
            if clients[client].runs[run].clock >= clocks.lowerBound && clients[client].runs[run].first == old {
                clients[client].runs[run].first = new
            }
            run += 1
        }
    }

    /// Folds deleted `right` into deleted `left` (its list and clock predecessor) and frees it.
    private mutating func absorb(_ right: Int32, into left: Int32) {
        let b = items[Int(right)]
        items[Int(left)].length += b.length
        items[Int(left)].next = b.next
        items[Int(left)].right = b.right
        // Deleted text is never read again; dropping it is what Yjs's garbage collection does.
        items[Int(left)].kind = .deletedContent
        items[Int(left)].scalars = 0
        if b.right >= 0 { items[Int(b.right)].left = left }
        let chunk = Int(b.chunk)
        let position = slot(of: right, in: chunk)
        chunks[chunk].items.remove(at: position)
        chunks[chunk].widths.remove(at: position)
        // Runs that start inside `right` (its own, and runs folded into it before) find their
        // clocks through it; they must find them through `left` now.
        repointRuns(from: right, to: left, clocks: b.clock..<b.endClock, client: Int(b.client))
        items[Int(right)].kind = .free
        freeItems.append(right)
    }
}
