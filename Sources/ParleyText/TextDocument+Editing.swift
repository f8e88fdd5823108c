/// Local edits, addressed in Unicode scalars, and the update that carries them to peers.
extension TextDocument {
    /// Inserts `text` so that its first scalar ends up at scalar `position`.
    /// - Throws: ``ParleyTextError/positionOutOfRange`` unless `0 <= position <= count`.
    public mutating func insert(_ text: String, at position: Int) throws(ParleyTextError) {
        guard position >= 0, position <= count else { throw .positionOutOfRange }
        let start = units.count
        let scalars = appendUnits(of: text)
        let length = units.count - start
        guard length > 0 else { return }
        guard units.count <= Int(Int32.max) else {
            units.removeSubrange(start...)
            throw .documentTooLarge
        }

        var left: Int32 = -1
        if position == 0 {
            resetCursor()
        } else {
            let (found, scalarsBefore) = locate(position)
            left = found
            if scalarsBefore < Int(items[Int(found)].scalars) {
                split(found, atUnit: unitOffset(ofScalar: scalarsBefore, in: found))
            }
        }
        let right = left >= 0 ? items[Int(left)].right : head
        let clock = clients[Int(localClient)].state
        if left >= 0 && canExtend(left, right: right, clock: clock, contentStart: start) {
            items[Int(left)].length += Int32(length)
            items[Int(left)].scalars += Int32(scalars)
            refreshWidth(of: left)
            clients[Int(localClient)].runs[clients[Int(localClient)].runs.count - 1].length += length
        } else {
            let origin = left >= 0 ? items[Int(left)] : nil
            let rightItem = right >= 0 ? items[Int(right)] : nil
            let item = Item(
                clock: clock, originClock: origin.map { $0.endClock - 1 } ?? -1,
                rightOriginClock: rightItem?.clock ?? -1, client: localClient,
                originClient: origin?.client ?? -1, rightOriginClient: rightItem?.client ?? -1,
                length: Int32(length), scalars: Int32(scalars), contentStart: Int32(start),
                left: -1, right: -1, next: -1, chunk: -1, kind: .string, deleted: false)
            let index = allocateItem(item)
            linkAfter(left, index)
            clients[Int(localClient)].runs.append(.init(clock: clock, length: length, first: index))
        }
        clients[Int(localClient)].state = clock + length
    }

    /// Appends the UTF-16 units of `text` to the text buffer; returns its scalar count.
    private mutating func appendUnits(of text: String) -> Int {
        var text = text
        let asciiCount: Int? = text.withUTF8 { bytes in
            for byte in bytes where byte >= 0x80 { return nil }
            for byte in bytes { units.append(UInt16(byte)) }
            return bytes.count
        }
        if let asciiCount { return asciiCount }
        units.append(contentsOf: text.utf16)
        return text.unicodeScalars.count
    }

    /// Whether typing after `left` can grow `left` instead of adding an item: the result is
    /// the item Yjs would get by merging the two.
    private func canExtend(_ left: Int32, right: Int32, clock: Int, contentStart: Int) -> Bool {
        let item = items[Int(left)]
        guard item.client == localClient, item.kind == .string, !item.deleted,
            item.endClock == clock, Int(item.contentStart) + Int(item.length) == contentStart
        else { return false }
        if right < 0 { return !item.hasRightOrigin }
        let rightItem = items[Int(right)]
        return item.rightOriginClient == rightItem.client && item.rightOriginClock == rightItem.clock
    }

    /// Deletes `count` scalars starting at scalar `position`.
    /// - Throws: ``ParleyTextError/positionOutOfRange`` unless the range lies inside the text.
    public mutating func delete(at position: Int, count length: Int) throws(ParleyTextError) {
        guard position >= 0, length >= 0, position <= count - length else { throw .positionOutOfRange }
        guard length > 0 else { return }
        let (found, scalarsBefore) = locate(position + 1)
        var item = found
        if scalarsBefore > 1 {
            item = split(found, atUnit: unitOffset(ofScalar: scalarsBefore - 1, in: found))
        }
        var remaining = length
        while remaining > 0 {
            let value = items[Int(item)]
            let width = Int(value.width)
            if width > 0 {
                if width > remaining {
                    split(item, atUnit: unitOffset(ofScalar: remaining, in: item))
                }
                remaining -= min(width, remaining)
                markDeleted(item)
                recordLocalDelete(items[Int(item)])
                item = mergeDeletedNeighbours(item)
            }
            item = items[Int(item)].right
        }
    }

    /// Replaces `deleteCount` scalars at `position` with `text` (JavaScript's `splice`).
    public mutating func splice(
        at position: Int, deleting deleteCount: Int, inserting text: String
    )
        throws(ParleyTextError)
    {
        try delete(at: position, count: deleteCount)
        try insert(text, at: position)
    }

    private mutating func recordLocalDelete(_ item: Item) {
        let client = clients[Int(item.client)].id
        if let last = localDeletes.last, last.client == client, last.clock + last.length == item.clock {
            localDeletes[localDeletes.count - 1].length += Int(item.length)
        } else {
            localDeletes.append(DeleteRange(client: client, clock: item.clock, length: Int(item.length)))
        }
    }

    /// Encodes the local edits made since the previous call as one Yjs update (v1), or
    /// returns nil when there were none.
    public mutating func takeLocalUpdate() -> [UInt8]? {
        let state = clients[Int(localClient)].state
        guard state > localUpdateClock || !localDeletes.isEmpty else { return nil }
        var writer = ByteWriter()
        if state > localUpdateClock {
            writer.writeVarUInt(1)
            writeStructs(of: localClient, from: localUpdateClock, to: &writer)
        } else {
            writer.writeVarUInt(0)
        }
        writeDeleteSet(Self.normalized(localDeletes), to: &writer)
        localUpdateClock = state
        localDeletes.removeAll()
        return writer.bytes
    }
}
