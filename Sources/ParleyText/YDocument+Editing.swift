/// Local editing of a client replica: texts, maps and arrays of values under root types of
/// any name, as Yjs `Y.Text`, `Y.Map` and `Y.Array` edit them. Each edit is integrated like
/// a remote struct of ``localClientID`` (so replicas converge exactly as with Yjs) and ends
/// like a Yjs transaction (deleted content is garbage collected). Edits are collected until
/// ``takeLocalUpdate()`` encodes them as one update.
///
/// Text positions count Unicode scalars (an embed or nested type in a text counts one,
/// formatting marks none); array positions count elements.
extension YDocument {
    /// Creates an empty replica whose local edits are stamped with `clientID` (unique among
    /// the document's writers).
    public init(clientID: UInt64) {
        self.init()
        localClientID = clientID
        _ = clientIndex(for: clientID)
    }

    // MARK: Reading

    /// The number of Unicode scalars in the text root `name` (embeds count one).
    public func scalarCount(ofText name: String) -> Int {
        guard let type = rootIndexByName[name] else { return 0 }
        var total = 0
        var current = types[Int(type)].start
        while current >= 0 {
            total += width(of: current, scalars: true)
            current = items[Int(current)].right
        }
        return total
    }

    /// The number of elements in the array root `name`.
    public func elementCount(ofArray name: String) -> Int {
        guard let type = rootIndexByName[name] else { return 0 }
        var total = 0
        var current = types[Int(type)].start
        while current >= 0 {
            total += width(of: current, scalars: false)
            current = items[Int(current)].right
        }
        return total
    }

    /// The names of the root types changed since the last call (local and remote edits),
    /// when ``tracksChanges`` is on.
    public mutating func takeChangedRoots() -> Set<String> {
        var roots: Set<String> = []
        for changed in changedTypes {
            // Up through the items holding nested types (a collected holder has no parent).
            var type = changed
            while type >= 0 && types[Int(type)].item >= 0 { type = items[Int(types[Int(type)].item)].parent }
            if type >= 0 { roots.insert(types[Int(type)].name) }
        }
        changedTypes.removeAll()
        return roots
    }

    // MARK: Texts

    /// Inserts `text` so that it starts at scalar `position` of the text root `name`.
    /// - Throws: ``ParleyTextError/positionOutOfRange`` unless `0 <= position <= count`.
    public mutating func insertText(_ text: String, at position: Int, inText name: String) throws(ParleyTextError) {
        guard !text.isEmpty else { return }
        let units = Array(text.utf16)
        guard units.count <= TextLimits.maxStructLength else { throw .invalidLength }
        let type = rootType(named: name)
        let (left, right) = try boundary(in: type, at: position, scalars: true)
        insertLocal(kind: .string, length: units.count, units: units, payload: [], in: type, key: nil, left: left, right: right)
    }

    /// Deletes `count` scalars of the text root `name` from scalar `position` on.
    /// - Throws: ``ParleyTextError/positionOutOfRange`` unless the range lies in the text.
    public mutating func deleteText(at position: Int, count: Int, inText name: String) throws(ParleyTextError) {
        try deleteRange(in: name, at: position, count: count, scalars: true)
    }

    // MARK: Arrays

    /// Inserts `values` at element `index` of the array root `name`.
    /// - Throws: ``ParleyTextError/positionOutOfRange`` unless `0 <= index <= count`.
    public mutating func insert(_ values: [YValue], at index: Int, inArray name: String) throws(ParleyTextError) {
        guard !values.isEmpty else { return }
        let type = rootType(named: name)
        let (left, right) = try boundary(in: type, at: index, scalars: false)
        var writer = ByteWriter()
        for value in values { value.writeAny(to: &writer) }
        insertLocal(kind: .any, length: values.count, units: [], payload: writer.bytes, in: type, key: nil, left: left, right: right)
    }

    /// Deletes `count` elements of the array root `name` from `index` on.
    /// - Throws: ``ParleyTextError/positionOutOfRange`` unless the range lies in the array.
    public mutating func deleteElements(at index: Int, count: Int, inArray name: String) throws(ParleyTextError) {
        try deleteRange(in: name, at: index, count: count, scalars: false)
    }

    // MARK: Maps

    /// Sets `key` of the map root `name` to `value` (the previous value is deleted).
    public mutating func setValue(_ value: YValue, forKey key: String, inMap name: String) {
        let type = rootType(named: name)
        let current = types[Int(type)].map[keyIndex(for: key)] ?? -1
        var writer = ByteWriter()
        value.writeAny(to: &writer)
        insertLocal(kind: .any, length: 1, units: [], payload: writer.bytes, in: type, key: key, left: current, right: -1)
    }

    /// Deletes `key` from the map root `name` (nothing when it is not set).
    public mutating func removeValue(forKey key: String, inMap name: String) {
        guard let type = rootIndexByName[name], let keyIndex = keyIndexByName[key],
            let current = types[Int(type)].map[keyIndex], !items[Int(current)].deleted
        else { return }
        deleteItem(current)
        finishLocalTransaction()
    }

    // MARK: Local updates

    /// The local edits since the last call, encoded as one update (nil when there were none).
    public mutating func takeLocalUpdate() -> [UInt8]? {
        let client = clientIndex(for: localClientID)
        let state = clients[Int(client)].state
        guard state > localUpdateClock || !localDeletes.isEmpty else { return nil }
        var writer = ByteWriter(capacity: 64)
        if state > localUpdateClock {
            writer.writeVarUInt(1)
            writeStructs(of: client, from: localUpdateClock, to: &writer)
        } else {
            writer.writeVarUInt(0)
        }
        Self.writeDeleteSet(localDeletes, to: &writer)
        localUpdateClock = state
        localDeletes = []
        return writer.bytes
    }

    // MARK: Helpers

    /// How many positions an item takes: scalars of visible text (or UTF-16 units when
    /// `scalars` is false), elements of JSON and "any" content, one for other content.
    private func width(of index: Int32, scalars: Bool) -> Int {
        let item = items[Int(index)]
        guard !item.deleted, item.kind.isCountable else { return 0 }
        switch item.kind {
        case .string:
            guard scalars else { return item.length }
            var count = 0
            for unit in units[item.content..<(item.content + item.length)] where !UTF8Transcoder.isLowSurrogate(unit) {
                count += 1
            }
            return count
        case .any, .json:
            return item.length
        default:
            return 1
        }
    }

    /// The offset in clocks of the item's `position`-th position.
    private func clockOffset(of position: Int, in index: Int32, scalars: Bool) -> Int {
        let item = items[Int(index)]
        guard scalars, item.kind == .string else { return position }
        var seen = 0
        var offset = 0
        while seen < position {
            if !UTF8Transcoder.isLowSurrogate(units[item.content + offset]) { seen += 1 }
            offset += 1
        }
        // Step over the low half of a surrogate pair, so a split never cuts it.
        while offset < item.length && UTF8Transcoder.isLowSurrogate(units[item.content + offset]) { offset += 1 }
        return offset
    }

    /// The neighbours an insertion at `position` goes between, splitting an item as needed:
    /// at 0 before everything, else right after the visible position (as Yjs places it).
    private mutating func boundary(in type: Int32, at position: Int, scalars: Bool) throws(ParleyTextError) -> (Int32, Int32) {
        guard position >= 0 else { throw .positionOutOfRange }
        if position == 0 { return (-1, types[Int(type)].start) }
        var remaining = position
        var current = types[Int(type)].start
        while current >= 0 {
            let width = width(of: current, scalars: scalars)
            if width > 0 && remaining <= width {
                if remaining < width {
                    return (current, split(current, at: clockOffset(of: remaining, in: current, scalars: scalars)))
                }
                return (current, items[Int(current)].right)
            }
            remaining -= width
            current = items[Int(current)].right
        }
        throw .positionOutOfRange
    }

    private mutating func deleteRange(in name: String, at position: Int, count: Int, scalars: Bool) throws(ParleyTextError) {
        guard count > 0 else {
            guard count == 0 else { throw .positionOutOfRange }
            return
        }
        guard let type = rootIndexByName[name] else { throw .positionOutOfRange }
        let total = scalars ? scalarCount(ofText: name) : elementCount(ofArray: name)
        guard position >= 0, position + count <= total else { throw .positionOutOfRange }
        var (_, current) = try boundary(in: type, at: position, scalars: scalars)
        var remaining = count
        while remaining > 0 && current >= 0 {
            let width = width(of: current, scalars: scalars)
            if width > 0 {
                if width > remaining { split(current, at: clockOffset(of: remaining, in: current, scalars: scalars)) }
                deleteItem(current)
                remaining -= min(width, remaining)
            }
            current = items[Int(current)].right
        }
        finishLocalTransaction()
    }

    /// Integrates new local content between `left` and `right` (for a map key: after the
    /// key's current item), then ends the transaction.
    private mutating func insertLocal(
        kind: YContentKind, length: Int, units: [UInt16], payload: [UInt8],
        in type: Int32, key: String?, left: Int32, right: Int32
    ) {
        let client = clientIndex(for: localClientID)
        var value = YWireStruct(
            kind: kind, client: localClientID, clock: clients[Int(client)].state, length: length,
            origin: left >= 0 ? lastID(of: left) : nil,
            rightOrigin: right >= 0 ? firstID(of: right) : nil,
            parent: wireParent(of: type), parentSub: key)
        value.units = units
        value.payload = payload
        integrateStruct(value, client: client, offset: 0)
        finishLocalTransaction()
    }

    private func firstID(of index: Int32) -> ItemID {
        let item = items[Int(index)]
        return ItemID(client: clients[Int(item.client)].id, clock: item.clock)
    }

    private func lastID(of index: Int32) -> ItemID {
        let item = items[Int(index)]
        return ItemID(client: clients[Int(item.client)].id, clock: item.endClock - 1)
    }

    private func wireParent(of type: Int32) -> YWireParent {
        let holder = types[Int(type)].item
        return holder < 0 ? .root(types[Int(type)].name) : .item(firstID(of: holder))
    }

    /// Records what the edit deleted for the next local update, then collects garbage as
    /// Yjs ends a transaction.
    private mutating func finishLocalTransaction() {
        for (index, end) in deletedInTransaction {
            let item = items[Int(index)]
            localDeletes.append(DeleteRange(client: clients[Int(item.client)].id, clock: item.clock, length: end - item.clock))
        }
        collectGarbage()
    }

    /// Writes deletions as a Yjs delete set: clients in descending order, ranges sorted and merged.
    private static func writeDeleteSet(_ deletes: [DeleteRange], to writer: inout ByteWriter) {
        let byClient = Dictionary(grouping: deletes, by: \.client)
        writer.writeVarUInt(byClient.count)
        for client in byClient.keys.sorted(by: >) {
            var merged: [(clock: Int, length: Int)] = []
            for range in byClient[client]!.sorted(by: { $0.clock < $1.clock }) {
                if let last = merged.last, last.clock + last.length >= range.clock {
                    merged[merged.count - 1].length = max(last.length, range.clock + range.length - last.clock)
                } else {
                    merged.append((range.clock, range.length))
                }
            }
            writer.writeVarUInt(client)
            writer.writeVarUInt(merged.count)
            for range in merged {
                writer.writeVarUInt(range.clock)
                writer.writeVarUInt(range.length)
            }
        }
    }
}
