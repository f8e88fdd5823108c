/// Encoding state vectors and updates of the whole document in Yjs format v1.
extension YDocument {
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

    /// Encodes the whole document as one update (Yjs `encodeStateAsUpdate(doc)`). Structs
    /// and deletions still waiting for dependencies are not included (see ``pendingUpdates``).
    public func encodeStateAsUpdate() -> [UInt8] {
        encodeDiff(since: [:])
    }

    /// Encodes what a peer with the given encoded state vector lacks
    /// (Yjs `encodeStateAsUpdate(doc, stateVector)`).
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
        writeDeleteSet(to: &writer)
        return writer.bytes
    }

    /// Consecutive pieces that Yjs would hold as one struct.
    private struct Draft {
        var first: Int32
        var last: Int32
        /// Clocks of the first piece that the peer already has.
        var offset: Int
        var length: Int
    }

    func writeStructs(of client: Int32, from start: Int, to writer: inout ByteWriter) {
        var body = ByteWriter(capacity: 256)
        var structCount = 0
        let store = clients[Int(client)]
        var clock = start
        var current = piece(client: client, clock: start)
        var draft: Draft?
        while current >= 0 && clock < store.state {
            let item = items[Int(current)]
            let offset = clock - item.clock
            if let open = draft, offset == 0, canMerge(open.last, current) {
                draft!.last = current
                draft!.length += item.length
            } else {
                if let open = draft {
                    writeDraft(open, to: &body)
                    structCount += 1
                }
                draft = Draft(first: current, last: current, offset: offset, length: item.length - offset)
            }
            clock = item.endClock
            current = item.next
        }
        if let open = draft {
            writeDraft(open, to: &body)
            structCount += 1
        }
        writer.writeVarUInt(structCount)
        writer.writeVarUInt(store.id)
        writer.writeVarUInt(start)
        writer.append(body.bytes)
    }

    /// Whether `next` continues `previous` the way Yjs `mergeWith` requires.
    private func canMerge(_ previous: Int32, _ next: Int32) -> Bool {
        let left = items[Int(previous)]
        let right = items[Int(next)]
        guard left.kind == right.kind, left.kind.isMergeable, left.endClock == right.clock else { return false }
        if left.kind == .gc { return true }
        return left.right == next && left.deleted == right.deleted
            && right.originClient == left.client && right.originClock == left.endClock - 1
            && right.rightOriginClient == left.rightOriginClient
            && right.rightOriginClock == left.rightOriginClock
    }

    private func writeDraft(_ draft: Draft, to writer: inout ByteWriter) {
        let first = items[Int(draft.first)]
        if first.kind == .gc {
            writer.writeUInt8(0)
            writer.writeVarUInt(draft.length)
            return
        }
        let hasOrigin = draft.offset > 0 || first.hasOrigin
        var info = first.kind.rawValue
        if hasOrigin { info |= 0x80 }
        if first.hasRightOrigin { info |= 0x40 }
        if first.parentSub >= 0 { info |= 0x20 }
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
            writeParent(of: first, to: &writer)
        }
        writeContent(of: draft, to: &writer)
    }

    private func writeParent(of item: YItem, to writer: inout ByteWriter) {
        let type = types[Int(item.parent)]
        if type.item < 0 {
            writer.writeVarUInt(1)
            writer.writeVarString(Array(type.name.utf8))
        } else {
            let holder = items[Int(type.item)]
            writer.writeVarUInt(0)
            writer.writeVarUInt(clients[Int(holder.client)].id)
            writer.writeVarUInt(holder.clock)
        }
        if item.parentSub >= 0 {
            writer.writeVarString(Array(keys[Int(item.parentSub)].utf8))
        }
    }

    /// The pieces of a draft, in order (they are neighbours in their client's clocks).
    private func pieces(of draft: Draft) -> [Int32] {
        var result = [draft.first]
        var current = draft.first
        while current != draft.last {
            current = items[Int(current)].next
            result.append(current)
        }
        return result
    }

    private func writeContent(of draft: Draft, to writer: inout ByteWriter) {
        let first = items[Int(draft.first)]
        switch first.kind {
        case .deleted:
            writer.writeVarUInt(draft.length)
        case .string:
            let parts = pieces(of: draft)
            var byteCount = 0
            for (index, part) in parts.enumerated() {
                let item = items[Int(part)]
                let from = item.content + (index == 0 ? draft.offset : 0)
                byteCount += UTF8Transcoder.utf8Count(units, from: from, to: item.content + item.length)
            }
            writer.writeVarUInt(byteCount)
            for (index, part) in parts.enumerated() {
                let item = items[Int(part)]
                let from = item.content + (index == 0 ? draft.offset : 0)
                UTF8Transcoder.appendUTF8(units, from: from, to: item.content + item.length, into: &writer.bytes)
            }
        case .json, .any:
            writer.writeVarUInt(draft.length)
            for (index, part) in pieces(of: draft).enumerated() {
                let item = items[Int(part)]
                let bytes = payloads[item.content]
                let skip =
                    index == 0 && draft.offset > 0
                    ? Self.elementOffset(of: draft.offset, in: bytes, kind: item.kind) : 0
                writer.bytes.append(contentsOf: bytes[skip...])
            }
        case .type:
            writer.append(types[first.content].payload)
        case .binary, .embed, .format, .doc:
            writer.append(payloads[first.content])
        case .gc:
            break
        }
    }

    // MARK: - Delete set

    /// Writes every deleted or garbage-collected clock range, clients in descending order.
    private func writeDeleteSet(to writer: inout ByteWriter) {
        var groups: [(client: UInt64, ranges: [(clock: Int, length: Int)])] = []
        for (index, store) in clients.enumerated() where store.state > 0 {
            var ranges: [(clock: Int, length: Int)] = []
            var current = piece(client: Int32(index), clock: 0)
            while current >= 0 {
                let item = items[Int(current)]
                if item.deleted {
                    if let last = ranges.last, last.clock + last.length == item.clock {
                        ranges[ranges.count - 1].length += item.length
                    } else {
                        ranges.append((item.clock, item.length))
                    }
                }
                current = item.next
            }
            if !ranges.isEmpty { groups.append((store.id, ranges)) }
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
