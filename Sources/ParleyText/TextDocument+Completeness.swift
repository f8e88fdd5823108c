/// Applying an update only when it integrates completely, as a server replica must: a
/// server that kept structs waiting for dependencies could neither compact them into a
/// snapshot nor tell the sender that something is missing.
extension TextDocument {
    /// Applies `update` when everything it carries can be integrated now, and returns true;
    /// returns false, leaving the document unchanged, when some struct or deletion would
    /// have to wait for clocks this replica has not seen.
    ///
    /// - Throws: a ``ParleyTextError`` when the update is malformed (the document is unchanged).
    public mutating func applyUpdateIfComplete(_ update: [UInt8]) throws(ParleyTextError) -> Bool {
        var decoded = try UpdateDecoder.decodeUpdate(update, rootName: rootNameUTF8)
        guard units.count + decoded.units.count < Int(Int32.max) else {
            throw .documentTooLarge
        }
        guard integratesCompletely(decoded) else { return false }
        integrate(&decoded)
        return true
    }

    /// Whether `update` (decoded) would leave nothing pending, simulating the integration
    /// order on clocks alone: a struct integrates once its own client's state reaches its
    /// clock and its origins are present.
    private func integratesCompletely(_ update: DecodedUpdate) -> Bool {
        guard pendingQueues.isEmpty, pendingDeletes.isEmpty else { return false }
        var queues: [UInt64: [WireStruct]] = [:]
        for value in update.structs {
            queues[value.client, default: []].append(value)
        }
        var simulated: [UInt64: Int] = [:]
        func state(_ client: UInt64) -> Int {
            if let value = simulated[client] { return value }
            guard let index = clientIndexByID[client] else { return 0 }
            return clients[Int(index)].state
        }
        var heads: [UInt64: Int] = [:]
        for client in queues.keys {
            queues[client]!.sort { $0.clock < $1.clock }
            heads[client] = 0
        }
        var progress = true
        while progress {
            progress = false
            for (client, queue) in queues {
                var head = heads[client]!
                while head < queue.count {
                    let next = queue[head]
                    let current = state(client)
                    if next.clock + next.length <= current {
                        head += 1
                        continue
                    }
                    let offset = current - next.clock
                    guard offset >= 0 else { break }
                    if next.kind != .gc {
                        if offset == 0, let origin = next.origin, origin.clock >= state(origin.client) { break }
                        if let right = next.rightOrigin, right.clock >= state(right.client) { break }
                    }
                    simulated[client] = next.clock + next.length
                    head += 1
                    progress = true
                }
                heads[client] = head
            }
        }
        for (client, queue) in queues where heads[client]! < queue.count {
            return false
        }
        return update.deletes.allSatisfy { $0.clock + $0.length <= state($0.client) }
    }
}
