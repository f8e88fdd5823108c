/// Encoding state vectors and updates in Yjs format v1.
extension TextDocument {
    /// Encodes the state vector: for each client, the next clock this replica expects.
    public func encodeStateVector() -> [UInt8] {
        let known = clients.filter { $0.state > 0 }.sorted { $0.id > $1.id }
        var writer = ByteWriter()
        writer.writeVarUInt(known.count)
        for store in known {
            writer.writeVarUInt(store.id)
            writer.writeVarUInt(store.state)
        }
        return writer.bytes
    }

    /// Encodes the whole document as one update (Yjs `encodeStateAsUpdate(doc)`).
    public func encodeStateAsUpdate() -> [UInt8] {
        encodeDiff(since: [:])
    }

    /// Encodes what a peer with the given encoded state vector lacks
    /// (Yjs `encodeStateAsUpdate(doc, stateVector)`). Pending structs are not included.
    /// - Throws: a ``ParleyTextError`` when the state vector is malformed.
    public func encodeStateAsUpdate(since stateVector: [UInt8]) throws(ParleyTextError) -> [UInt8] {
        encodeDiff(since: try UpdateDecoder.decodeStateVector(stateVector))
    }

    /// Encodes the structs a peer lacks, by state vector, and the full delete set.
    public func encodeDiff(since stateVector: [UInt64: Int]) -> [UInt8] {
        var writer = ByteWriter(capacity: 256)
        let targets = clients.indices.filter { clients[$0].state > (stateVector[clients[$0].id] ?? 0) }
            .sorted { clients[$0].id > clients[$1].id }
        writer.writeVarUInt(targets.count)
        for client in targets {
            writeStructs(of: Int32(client), from: stateVector[clients[client].id] ?? 0, to: &writer)
        }
        writeDeleteSet(fullDeleteSet(), to: &writer)
        return writer.bytes
    }

    // MARK: - Structs

    /// A struct being assembled from consecutive pieces that Yjs would hold as one item.
    private struct StructDraft {
        var first: Int32
        var last: Int32
        var offset: Int
        var length: Int
        var deleted: Bool
        var isGC: Bool
    }

    /// Writes the structs of `client` from `start` to its state: count, client, clock, structs.
    func writeStructs(of client: Int32, from start: Int, to writer: inout ByteWriter) {
        var body = ByteWriter(capacity: 256)
        var structCount = 0
        var draft: StructDraft?
        let store = clients[Int(client)]
        var clock = start
        var current: Int32 = -1
        while clock < store.state {
            if current < 0 || items[Int(current)].clock != clock {
                let run = store.runs[store.runIndex(containing: clock)]
                if run.first < 0 {
                    let gapEnd = run.clock + run.length
                    if let open = draft, open.isGC {
                        draft!.length += gapEnd - clock
                    } else {
                        if let open = draft { writeDraft(open, to: &body); structCount += 1 }
                        draft = StructDraft(
                            first: -1, last: -1, offset: 0, length: gapEnd - clock,
                            deleted: true, isGC: true)
                    }
                    clock = gapEnd
                    current = -1
                    continue
                }
                current = piece(client: client, clock: clock)
            }
            let item = items[Int(current)]
            let offset = clock - item.clock
            if let open = draft, !open.isGC, offset == 0, canMerge(open.last, current) {
                draft!.last = current
                draft!.length += Int(item.length)
            } else {
                if let open = draft { writeDraft(open, to: &body); structCount += 1 }
                draft = StructDraft(
                    first: current, last: current, offset: offset,
                    length: Int(item.length) - offset, deleted: item.deleted, isGC: false)
            }
            clock = item.endClock
            current = item.next
        }
        if let open = draft { writeDraft(open, to: &body); structCount += 1 }
        writer.writeVarUInt(structCount)
        writer.writeVarUInt(store.id)
        writer.writeVarUInt(start)
        writer.append(body.bytes)
    }

    /// Whether `next` continues `previous` the way Yjs `Item.mergeWith` requires.
    private func canMerge(_ previous: Int32, _ next: Int32) -> Bool {
        let left = items[Int(previous)]
        let right = items[Int(next)]
        return left.right == next && left.deleted == right.deleted
            && (left.deleted || (left.kind == .string && right.kind == .string))
            && right.originClient == left.client && right.originClock == left.endClock - 1
            && right.rightOriginClient == left.rightOriginClient
            && right.rightOriginClock == left.rightOriginClock
    }

    private func writeDraft(_ draft: StructDraft, to writer: inout ByteWriter) {
        if draft.isGC {
            writer.writeUInt8(0)
            writer.writeVarUInt(draft.length)
            return
        }
        let first = items[Int(draft.first)]
        let hasOrigin = draft.offset > 0 || first.hasOrigin
        var info: UInt8 = draft.deleted ? 1 : 4
        if hasOrigin { info |= 0x80 }
        if first.hasRightOrigin { info |= 0x40 }
        writer.writeUInt8(info)
        if draft.offset > 0 {
            writer.writeVarUInt(clients[Int(first.client)].id)
            writer.writeVarUInt(first.clock + draft.offset - 1)
        } else if first.hasOrigin {
            writer.writeVarUInt(clients[Int(first.originClient)].id)
            writer.writeVarUInt(first.originClock)
        }
        if first.hasRightOrigin {
            writer.writeVarUInt(clients[Int(first.rightOriginClient)].id)
            writer.writeVarUInt(first.rightOriginClock)
        }
        if !hasOrigin && !first.hasRightOrigin {
            writer.writeVarUInt(1)
            writer.writeVarString(rootNameUTF8)
        }
        if draft.deleted {
            writer.writeVarUInt(draft.length)
        } else {
            writeText(of: draft, to: &writer)
        }
    }

    /// Writes the merged text of a draft's pieces as one length-prefixed UTF-8 string.
    private func writeText(of draft: StructDraft, to writer: inout ByteWriter) {
        var byteCount = 0
        var piece = draft.first
        var offset = draft.offset
        while true {
            let item = items[Int(piece)]
            let start = Int(item.contentStart)
            byteCount += UTF8Transcoder.utf8Count(units, from: start + offset, to: start + Int(item.length))
            if piece == draft.last { break }
            piece = item.right  // merged pieces are neighbours in the list
            offset = 0
        }
        writer.writeVarUInt(byteCount)
        writer.bytes.reserveCapacity(writer.bytes.count + byteCount)
        piece = draft.first
        offset = draft.offset
        while true {
            let item = items[Int(piece)]
            let start = Int(item.contentStart)
            UTF8Transcoder.appendUTF8(units, from: start + offset, to: start + Int(item.length), into: &writer.bytes)
            if piece == draft.last { break }
            piece = item.right  // merged pieces are neighbours in the list
            offset = 0
        }
    }

    // MARK: - Delete sets

    /// Every deleted or garbage-collected clock range of every client.
    func fullDeleteSet() -> [DeleteRange] {
        var ranges: [DeleteRange] = []
        for store in clients {
            var clock = 0
            var current: Int32 = -1
            var runIndex = 0
            while clock < store.state {
                if current < 0 || items[Int(current)].clock != clock {
                    while runIndex + 1 < store.runs.count && store.runs[runIndex + 1].clock <= clock {
                        runIndex += 1
                    }
                    let run = store.runs[runIndex]
                    if run.first < 0 {
                        Self.appendRange(&ranges, client: store.id, clock: clock, length: run.clock + run.length - clock)
                        clock = run.clock + run.length
                        current = -1
                        continue
                    }
                    current = piece(client: clientIndexByID[store.id]!, clock: clock)
                }
                let item = items[Int(current)]
                if item.deleted {
                    Self.appendRange(&ranges, client: store.id, clock: item.clock, length: Int(item.length))
                }
                clock = item.endClock
                current = item.next
            }
        }
        return ranges
    }

    private static func appendRange(_ ranges: inout [DeleteRange], client: UInt64, clock: Int, length: Int) {
        if let last = ranges.last, last.client == client, last.clock + last.length == clock {
            ranges[ranges.count - 1].length += length
        } else {
            ranges.append(DeleteRange(client: client, clock: clock, length: length))
        }
    }

    /// Sorts ranges by client and clock and merges overlapping or touching ones.
    static func normalized(_ ranges: [DeleteRange]) -> [DeleteRange] {
        let sorted = ranges.sorted { ($0.client, $0.clock) < ($1.client, $1.clock) }
        var merged: [DeleteRange] = []
        for range in sorted {
            if let last = merged.last, last.client == range.client, last.clock + last.length >= range.clock {
                let end = max(last.clock + last.length, range.clock + range.length)
                merged[merged.count - 1].length = end - last.clock
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    /// Writes a delete set, clients in descending order as Yjs writes them.
    func writeDeleteSet(_ ranges: [DeleteRange], to writer: inout ByteWriter) {
        var groups: [(client: UInt64, ranges: ArraySlice<DeleteRange>)] = []
        var start = 0
        while start < ranges.count {
            var end = start + 1
            while end < ranges.count && ranges[end].client == ranges[start].client { end += 1 }
            groups.append((ranges[start].client, ranges[start..<end]))
            start = end
        }
        groups.sort { $0.client > $1.client }
        writer.writeVarUInt(groups.count)
        for group in groups {
            writer.writeVarUInt(group.client)
            writer.writeVarUInt(group.ranges.count)
            for range in group.ranges {
                writer.writeVarUInt(range.clock)
                writer.writeVarUInt(range.length)
            }
        }
    }
}
