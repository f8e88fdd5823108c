/// The awareness states of a document's clients (who is there, cursors, selections), with
/// the merge rules of y-protocols: a higher clock wins; at equal clocks a `null` state
/// removes; a client that sent nothing for ``timeout`` milliseconds is considered gone.
///
/// Time is passed in by the caller (milliseconds on any monotonic or wall clock), so the
/// value is deterministic. A replica may own one local client, whose state remote peers
/// cannot remove, and whose clock is renewed before others would time it out.
public struct Awareness: Sendable {
    /// y-protocols' outdated timeout: 30 seconds without an update means a client is gone.
    public static let defaultTimeout: Int64 = 30_000

    /// A client's clock and when its last update arrived.
    struct Meta: Sendable {
        var clock: UInt64
        var lastUpdated: Int64
    }

    /// The local client, if this replica has one.
    public let localClientID: UInt64?
    /// How long (ms) a remote client may stay silent before its state is dropped.
    public let timeout: Int64
    /// The current states (JSON text) by client id.
    public private(set) var states: [UInt64: String] = [:]
    var meta: [UInt64: Meta] = [:]

    /// Creates an empty awareness.
    /// - Parameters:
    ///   - localClientID: this replica's own client, or nil for a relay such as a server.
    ///   - timeout: the outdated timeout in milliseconds.
    public init(localClientID: UInt64? = nil, timeout: Int64 = defaultTimeout) {
        self.localClientID = localClientID
        self.timeout = timeout
    }

    /// The clock last seen for `client`, or nil if it never sent anything.
    public func clock(of client: UInt64) -> UInt64? {
        meta[client]?.clock
    }

    /// The local client's state.
    public var localState: String? {
        localClientID.flatMap { states[$0] }
    }

    /// Sets (or with nil, removes) the local client's state, advancing its clock.
    /// Does nothing without a local client.
    @discardableResult
    public mutating func setLocalState(_ state: String?, now: Int64) -> AwarenessChange {
        guard let local = localClientID else { return AwarenessChange() }
        let clock = meta[local].map { $0.clock + 1 } ?? 0
        let previous = states[local]
        states[local] = state
        meta[local] = Meta(clock: clock, lastUpdated: now)
        if state == nil {
            return previous == nil ? AwarenessChange() : AwarenessChange(removed: [local])
        }
        return previous == nil ? AwarenessChange(added: [local]) : AwarenessChange(updated: [local])
    }

    /// Applies a remote update: entries with a newer clock replace a client's state; a `null`
    /// state at the same or a newer clock removes it. A remote removal of the local client is
    /// refused by advancing the local clock (so peers learn the client is still there).
    @discardableResult
    public mutating func apply(_ update: AwarenessUpdate, now: Int64) -> AwarenessChange {
        var change = AwarenessChange()
        for entry in update.entries {
            let known = meta[entry.clientID]
            let current = known?.clock ?? 0
            let hasState = states[entry.clientID] != nil
            guard current < entry.clock || (current == entry.clock && entry.state == nil && hasState) else { continue }
            var clock = entry.clock
            if let state = entry.state {
                states[entry.clientID] = state
                if hasState { change.updated.append(entry.clientID) } else { change.added.append(entry.clientID) }
            } else if entry.clientID == localClientID, hasState {
                clock += 1
                change.updated.append(entry.clientID)
            } else {
                states[entry.clientID] = nil
                if hasState { change.removed.append(entry.clientID) }
            }
            meta[entry.clientID] = Meta(clock: clock, lastUpdated: now)
        }
        return change
    }

    /// Removes the states of `clients` (a disconnect), keeping their clocks so a `null`
    /// entry at that clock tells peers to remove them too.
    @discardableResult
    public mutating func remove(_ clients: [UInt64], now: Int64) -> AwarenessChange {
        var change = AwarenessChange()
        for client in clients where states[client] != nil {
            states[client] = nil
            if client == localClientID, let known = meta[client] {
                meta[client] = Meta(clock: known.clock + 1, lastUpdated: now)
            }
            change.removed.append(client)
        }
        return change
    }

    /// Drops remote clients silent for at least ``timeout``, and renews the local client's
    /// clock once half the timeout has passed, as y-protocols' periodic check does.
    @discardableResult
    public mutating func expire(now: Int64) -> AwarenessChange {
        var change = AwarenessChange()
        if let local = localClientID, let state = states[local], let known = meta[local],
            now - known.lastUpdated >= timeout / 2
        {
            change = setLocalState(state, now: now)
        }
        let outdated = meta.compactMap { client, known in
            client != localClientID && states[client] != nil && now - known.lastUpdated >= timeout ? client : nil
        }
        change.removed += remove(outdated.sorted(), now: now).removed
        return change
    }

    /// An update that tells peers the current state (or removal) of `clients`.
    /// Clients never seen are left out.
    public func update(for clients: [UInt64]) -> AwarenessUpdate {
        AwarenessUpdate(
            entries: clients.compactMap { client in
                meta[client].map { AwarenessUpdate.Entry(clientID: client, clock: $0.clock, state: states[client]) }
            })
    }

    /// An update with every client that currently has a state (the answer to query-awareness).
    public func fullUpdate() -> AwarenessUpdate {
        update(for: states.keys.sorted())
    }
}
