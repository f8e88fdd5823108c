/// Positions in a text root that follow the text: the id of the character at a position,
/// and where a character is now (what Yjs relative positions are made of).
extension YDocument {
    /// The id of the scalar at `position` of the text root `name` (the character right of a
    /// caret there), or nil at the end of the text or outside it.
    public func itemID(atScalar position: Int, inText name: String) -> ItemID? {
        guard position >= 0, let type = rootIndexByName[name] else { return nil }
        var remaining = position
        var current = types[Int(type)].start
        while current >= 0 {
            let item = items[Int(current)]
            let width = visibleScalars(item)
            if remaining < width {
                let offset = item.kind == .string ? unitsBefore(scalar: remaining, in: item) : 0
                return ItemID(client: clients[Int(item.client)].id, clock: item.clock + offset)
            }
            remaining -= width
            current = item.right
        }
        return nil
    }

    /// Where the character with `id` is now in the text root `name`, in scalars, or where it
    /// was if it was deleted (then `isDeleted`); nil when this replica has not seen it, it
    /// was garbage collected, or it is not in that text.
    public func scalarPosition(of id: ItemID, inText name: String) -> (position: Int, isDeleted: Bool)? {
        guard let client = clientIndexByID[id.client], id.clock >= 0, id.clock < clients[Int(client)].state,
            let type = rootIndexByName[name]
        else { return nil }
        let target = piece(client: client, clock: id.clock)
        guard items[Int(target)].kind != .gc, items[Int(target)].parent == type else { return nil }
        var position = 0
        var current = types[Int(type)].start
        while current >= 0 && current != target {
            position += visibleScalars(items[Int(current)])
            current = items[Int(current)].right
        }
        let item = items[Int(target)]
        guard !item.deleted else { return (position, true) }
        guard item.kind == .string else { return (position, false) }
        var scalars = 0
        for offset in 0..<(id.clock - item.clock) where !UTF8Transcoder.isLowSurrogate(units[item.content + offset]) {
            scalars += 1
        }
        if id.clock > item.clock, UTF8Transcoder.isLowSurrogate(units[item.content + id.clock - item.clock]) {
            scalars -= 1  // the low half belongs to the scalar its high half starts
        }
        return (position + scalars, false)
    }

    /// The scalars a text item shows (embeds and nested types one, formatting none).
    private func visibleScalars(_ item: YItem) -> Int {
        guard !item.deleted, item.kind.isCountable else { return 0 }
        guard item.kind == .string else { return item.kind == .any || item.kind == .json ? item.length : 1 }
        var count = 0
        for unit in units[item.content..<(item.content + item.length)] where !UTF8Transcoder.isLowSurrogate(unit) {
            count += 1
        }
        return count
    }

    /// The UTF-16 units of a string item before its scalar `index`.
    private func unitsBefore(scalar index: Int, in item: YItem) -> Int {
        var seen = 0
        var offset = 0
        while seen < index || (offset < item.length && UTF8Transcoder.isLowSurrogate(units[item.content + offset]) && offset > 0) {
            if !UTF8Transcoder.isLowSurrogate(units[item.content + offset]) { seen += 1 }
            offset += 1
        }
        return offset
    }
}
