/// Positions that follow the text: a caret tied to the character after it keeps its place
/// when others insert or delete before it (what Yjs calls a relative position).
extension TextDocument {
    /// The id of the scalar at `position` (the character right of a caret there), or nil at
    /// the end of the text or outside it.
    public mutating func itemID(atScalar position: Int) -> ItemID? {
        guard position >= 0, position < count else { return nil }
        let (item, scalars) = locate(position + 1)
        let value = items[Int(item)]
        return ItemID(client: clients[Int(value.client)].id, clock: value.clock + unitOffset(ofScalar: scalars - 1, in: item))
    }

    /// Where the character with `id` is now, in scalars, or where it was if it was deleted
    /// (then `isDeleted`); nil when this replica has not seen it (or it was garbage collected).
    public func scalarPosition(of id: ItemID) -> (position: Int, isDeleted: Bool)? {
        guard let client = clientIndexByID[id.client], id.clock >= 0, id.clock < clients[Int(client)].state else { return nil }
        let item = piece(client: client, clock: id.clock)
        guard item >= 0 else { return nil }
        let value = items[Int(item)]
        let chunk = Int(value.chunk)
        var position = 0
        for chunkIndex in order {
            if Int(chunkIndex) == chunk { break }
            position += chunks[Int(chunkIndex)].visible
        }
        let slot = slot(of: item, in: chunk)
        for before in 0..<slot { position += Int(chunks[chunk].widths[before]) }
        guard !value.deleted else { return (position, true) }
        return (position + scalarsBefore(unit: id.clock - value.clock, in: value), false)
    }

    /// The index, among `item`'s scalars, of the one holding its UTF-16 unit `offset` (the
    /// second half of a surrogate pair belongs to the scalar its first half starts).
    private func scalarsBefore(unit offset: Int, in item: Item) -> Int {
        if item.scalars == item.length { return offset }
        let start = Int(item.contentStart)
        var scalars = 0
        for unit in units[start..<(start + offset)] where !Self.isLowSurrogate(unit) { scalars += 1 }
        if offset > 0, Self.isLowSurrogate(units[start + offset]), Self.isHighSurrogate(units[start + offset - 1]) {
            scalars -= 1
        }
        return scalars
    }

    private static func isLowSurrogate(_ unit: UInt16) -> Bool { (0xDC00...0xDFFF).contains(unit) }

    private static func isHighSurrogate(_ unit: UInt16) -> Bool { (0xD800...0xDBFF).contains(unit) }
}
