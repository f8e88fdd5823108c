/// Finding structs by id and splitting them, as Yjs `getItemCleanStart`/`getItemCleanEnd`
/// and `splitItem` do.
extension YDocument {
    /// The piece holding `clock` of client `client` (which must be below its state).
    func piece(client: Int32, clock: Int) -> Int32 {
        let store = clients[Int(client)]
        var piece = store.runs[store.runIndex(containing: clock)].first
        while items[Int(piece)].endClock <= clock { piece = items[Int(piece)].next }
        return piece
    }

    /// The piece that ends exactly at `clock`, splitting an item as needed (GC is not split).
    mutating func cleanEnd(client: Int32, clock: Int) -> Int32 {
        let found = piece(client: client, clock: clock)
        let item = items[Int(found)]
        if item.kind != .gc && clock < item.endClock - 1 {
            split(found, at: clock - item.clock + 1)
        }
        return found
    }

    /// The piece that starts exactly at `clock`, splitting an item as needed (GC is not split).
    mutating func cleanStart(client: Int32, clock: Int) -> Int32 {
        let found = piece(client: client, clock: clock)
        let item = items[Int(found)]
        if item.kind != .gc && clock > item.clock {
            return split(found, at: clock - item.clock)
        }
        return found
    }

    /// Splits item `index` after `offset` clocks; returns the new right piece.
    @discardableResult
    mutating func split(_ index: Int32, at offset: Int) -> Int32 {
        var left = items[Int(index)]
        var right = left
        right.clock = left.clock + offset
        right.length = left.length - offset
        right.originClient = left.client
        right.originClock = right.clock - 1
        right.left = index
        switch left.kind {
        case .string:
            right.content = left.content + offset
            let boundary = left.content + offset
            // Splitting a surrogate pair would leave invalid text: both halves become U+FFFD.
            if UTF8Transcoder.isHighSurrogate(units[boundary - 1]) && UTF8Transcoder.isLowSurrogate(units[boundary]) {
                units[boundary - 1] = 0xFFFD
                units[boundary] = 0xFFFD
            }
        case .json, .any:
            let bytes = payloads[left.content]
            let cut = Self.elementOffset(of: offset, in: bytes, kind: left.kind)
            payloads[left.content] = Array(bytes[..<cut])
            payloads.append(Array(bytes[cut...]))
            right.content = payloads.count - 1
        default:
            break
        }
        left.length = offset
        let newIndex = allocate(right)
        left.right = newIndex
        left.next = newIndex
        items[Int(index)] = left
        if right.right >= 0 {
            items[Int(right.right)].left = newIndex
        } else if right.parentSub >= 0 && right.parent >= 0 {
            types[Int(right.parent)].map[right.parentSub] = newIndex
        }
        return newIndex
    }

    /// The byte offset of element `index` in the elements of JSON or "any" content.
    static func elementOffset(of index: Int, in bytes: [UInt8], kind: YContentKind) -> Int {
        var reader = ByteReader(bytes)
        // The bytes were validated when they arrived, so skipping cannot fail.
        for _ in 0..<index {
            if kind == .json { try? reader.skipVarString() } else { try? reader.skipAny() }
        }
        return reader.offset
    }
}
