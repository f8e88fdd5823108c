import ParleyText

/// The client side of the y-websocket protocol for one document, without I/O: the replica
/// (any Yjs content; the session edits named texts, maps and arrays), the awareness, and
/// what to send when. The session feeds it connection events,
/// received messages and local edits, and sends the messages it returns.
///
/// Sync: on every (re)connect it sends sync step 1 (its state vector) and answers the
/// server's step 1 with step 2, the diff the server lacks, which carries every edit made
/// while offline. Until it has answered that step 1 it sends no live update: the server
/// accepts only updates whose dependencies it has, and the step-2 diff includes all local
/// edits anyway. A malformed or invalid message from the server is counted and ignored,
/// leaving the replica as it was.
package struct DocumentReplica: Sendable {
    /// Where the protocol is on the current connection.
    enum Phase: Sendable, Equatable {
        /// No connection.
        case offline
        /// Connected; the server's step 1 or step 2 has not arrived yet.
        case syncing
        /// Connected; both sides have exchanged their diffs.
        case synced
    }

    /// What a received message or a timer tick changed.
    struct Outcome: Sendable, Equatable {
        /// Messages to send back.
        var replies: [[UInt8]] = []
        /// The document changed.
        var textChanged = false
        /// The root types the message changed, by name.
        var changedRoots: Set<String> = []
        /// Someone's awareness (presence, cursor) changed.
        var peersChanged = false
        /// The server refused access, with its reason.
        var denied: String?
        /// The message was malformed or could not be applied, and was ignored.
        var rejected: Bool { rejection != nil }
        /// Why the message was ignored.
        var rejection: String?
    }

    /// The root the session's caret, selection and plain text API work on.
    package static let textRoot = "text"

    private(set) var document: YDocument
    private(set) var awareness: Awareness
    private(set) var phase: Phase = .offline
    /// Increases with every change of the document.
    private(set) var version = 0
    /// Server messages ignored as malformed or invalid.
    private(set) var rejectedMessages = 0
    private var answeredServerStep1 = false
    private var receivedStep2 = false
    private var presence: DocumentPresence
    /// The roots local edits changed since ``takeLocalRoots()``.
    private var lastLocalRoots: Set<String> = []
    private var anchor: StickyPosition?
    private var head: StickyPosition?

    /// Creates an empty replica for client `clientID` presenting itself as `presence`.
    init(clientID: UInt64, presence: DocumentPresence) {
        document = YDocument(clientID: clientID)
        document.tracksChanges = true
        awareness = Awareness(localClientID: clientID)
        self.presence = presence
        // As a y-protocols awareness starts with clock 0; peers accept only later clocks.
        awareness.setLocalState(presence.json(cursor: nil), now: 0)
    }

    /// This replica's client id.
    var clientID: UInt64 { document.localClientID }

    /// The local selection now, following the text.
    var selection: DocumentSelection? {
        guard let anchor, let head else { return nil }
        return DocumentSelection(anchor: anchor.position(in: document), head: head.position(in: document))
    }

    /// The other clients with a state, by client id.
    var peers: [DocumentPeer] {
        awareness.states.keys.sorted().compactMap { client in
            guard client != clientID, let state = awareness.states[client] else { return nil }
            let presence = DocumentPresence(json: state) { StickyPosition.resolve($0, in: document) }
            return DocumentPeer(clientID: client, presence: presence ?? DocumentPresence(name: ""))
        }
    }

    // MARK: Connection

    /// The connection is open: the messages that start the sync and announce this client.
    mutating func opened(now: Int64) -> [[UInt8]] {
        phase = .syncing
        answeredServerStep1 = false
        receivedStep2 = false
        awareness.setLocalState(localState, now: now)
        return [
            YSyncMessage.syncStep1(stateVector: document.encodeStateVector()).encode(),
            YSyncMessage.awareness(awareness.update(for: [clientID])).encode()
        ]
    }

    /// The connection is gone: other clients' presence is forgotten (it is resent on the
    /// next connect); the text and local edits stay. Returns whether peers changed.
    mutating func closed(now: Int64) -> Bool {
        phase = .offline
        answeredServerStep1 = false
        receivedStep2 = false
        let others = awareness.states.keys.filter { $0 != clientID }
        return !awareness.remove(others.sorted(), now: now).isEmpty
    }

    /// The message that tells the others this client is leaving (awareness `null`).
    mutating func leaving(now: Int64) -> [UInt8] {
        awareness.setLocalState(nil, now: now)
        return YSyncMessage.awareness(awareness.update(for: [clientID])).encode()
    }

    // MARK: Receiving

    /// Handles one message from the server.
    mutating func receive(_ bytes: [UInt8], now: Int64) -> Outcome {
        var outcome = Outcome()
        let message: YSyncMessage
        do {
            message = try YSyncMessage.decode(bytes)
        } catch {
            reject(&outcome, "not a y-websocket message: \(error)")
            return outcome
        }
        switch message {
        case .syncStep1(let stateVector):
            answerStep1(stateVector, into: &outcome)
        case .syncStep2(let update):
            apply(update, into: &outcome)
            if !outcome.rejected {
                receivedStep2 = true
                settle()
            }
        case .update(let update):
            apply(update, into: &outcome)
        case .awareness(let update):
            outcome.peersChanged = !awareness.apply(update, now: now).isEmpty
        case .queryAwareness:
            outcome.replies.append(YSyncMessage.awareness(awareness.update(for: [clientID])).encode())
        case .permissionDenied(let reason):
            outcome.denied = reason
        }
        return outcome
    }

    /// Step 2 with everything the server lacks: local edits made offline included, so
    /// pending local-update bookkeeping is dropped (it is all in this diff).
    private mutating func answerStep1(_ stateVector: [UInt8], into outcome: inout Outcome) {
        let diff: [UInt8]
        do {
            diff = try document.encodeStateAsUpdate(since: stateVector)
        } catch {
            reject(&outcome, "cannot answer the server's state vector: \(error)")
            return
        }
        _ = document.takeLocalUpdate()
        answeredServerStep1 = true
        outcome.replies.append(YSyncMessage.syncStep2(update: diff).encode())
        settle()
    }

    private mutating func apply(_ update: [UInt8], into outcome: inout Outcome) {
        do {
            try document.applyUpdate(update)
        } catch {
            reject(&outcome, "update not applied: \(error)")
            return
        }
        let roots = document.takeChangedRoots()
        if !roots.isEmpty {
            version += 1
            outcome.textChanged = true
            outcome.changedRoots = roots
        }
    }

    private mutating func reject(_ outcome: inout Outcome, _ reason: String) {
        rejectedMessages += 1
        outcome.rejection = reason
    }

    private mutating func settle() {
        if phase == .syncing, answeredServerStep1, receivedStep2 { phase = .synced }
    }

    // MARK: Local changes

    /// The roots local edits changed since the last call.
    mutating func takeLocalRoots() -> Set<String> {
        defer { lastLocalRoots = [] }
        return lastLocalRoots
    }

    /// Inserts `text` at scalar `position`; returns the update to send, if it may go out now.
    mutating func insert(_ text: String, at position: Int) throws(ParleyError) -> [[UInt8]] {
        try edit { document throws(ParleyTextError) in try document.insertText(text, at: position, inText: Self.textRoot) }
    }

    /// Deletes `count` scalars at `position`; returns the update to send, if it may go out now.
    mutating func delete(at position: Int, count: Int) throws(ParleyError) -> [[UInt8]] {
        try edit { document throws(ParleyTextError) in try document.deleteText(at: position, count: count, inText: Self.textRoot) }
    }

    /// Applies a local edit of any root; returns the update to send, if it may go out now.
    /// An edit that throws (a position outside the content) changes nothing.
    mutating func edit(_ body: (inout YDocument) throws(ParleyTextError) -> Void) throws(ParleyError) -> [[UInt8]] {
        do {
            try body(&document)
        } catch {
            throw ParleyError(.invalidArgument, "the edit does not fit the document: \(error)")
        }
        lastLocalRoots.formUnion(document.takeChangedRoots())
        version += 1
        guard answeredServerStep1, let update = document.takeLocalUpdate() else { return [] }
        return [YSyncMessage.update(update).encode()]
    }

    /// Types `text` at the caret, replacing the selected text, and puts the caret after it
    /// (no caret yet: at the end). Returns the messages to send.
    mutating func replaceSelection(with text: String, now: Int64) throws(ParleyError) -> [[UInt8]] {
        let range = (selection ?? .cursor(document.count)).clamped(to: document.count).range
        var messages: [[UInt8]] = []
        if !range.isEmpty { messages += try delete(at: range.lowerBound, count: range.count) }
        messages += try insert(text, at: range.lowerBound)
        let inserted = text.unicodeScalars.count
        return messages + setSelection(.cursor(range.lowerBound + inserted), now: now)
    }

    /// Deletes the selected text, or the scalar before (`forward`: after) the caret.
    /// Returns the messages to send.
    mutating func deleteAtCaret(forward: Bool, now: Int64) throws(ParleyError) -> [[UInt8]] {
        let current = (selection ?? .cursor(document.count)).clamped(to: document.count)
        var range = current.range
        if range.isEmpty {
            if forward {
                guard range.lowerBound < document.count else { return [] }
                range = range.lowerBound..<(range.lowerBound + 1)
            } else {
                guard range.lowerBound > 0 else { return [] }
                range = (range.lowerBound - 1)..<range.lowerBound
            }
        }
        let messages = try delete(at: range.lowerBound, count: range.count)
        return messages + setSelection(.cursor(range.lowerBound), now: now)
    }

    /// Sets (nil: clears) the local selection; returns the awareness message to send.
    mutating func setSelection(_ selection: DocumentSelection?, now: Int64) -> [[UInt8]] {
        if let selection {
            let clamped = selection.clamped(to: document.count)
            anchor = StickyPosition.at(clamped.anchor, in: document)
            head = clamped.head == clamped.anchor ? anchor : StickyPosition.at(clamped.head, in: document)
        } else {
            anchor = nil
            head = nil
        }
        return announce(now: now)
    }

    /// Changes the name or colour shown to others; returns the awareness message to send.
    mutating func setPresence(name: String, color: String?, now: Int64) -> [[UInt8]] {
        presence.name = name
        presence.color = color
        return announce(now: now)
    }

    /// This client's awareness state: its presence and its cursor as Yjs relative positions.
    private var localState: String {
        guard let anchor, let head else { return presence.json(cursor: nil) }
        let root = Self.textRoot
        return presence.json(cursor: .object(["anchor": anchor.yjsJSON(rootName: root), "head": head.yjsJSON(rootName: root)]))
    }

    private mutating func announce(now: Int64) -> [[UInt8]] {
        awareness.setLocalState(localState, now: now)
        guard phase != .offline else { return [] }
        return [YSyncMessage.awareness(awareness.update(for: [clientID])).encode()]
    }

    /// Periodic upkeep: drops peers silent too long, renews this client's presence before
    /// others would drop it.
    mutating func tick(now: Int64) -> Outcome {
        var outcome = Outcome()
        let change = awareness.expire(now: now)
        outcome.peersChanged = change.changedClients.contains { $0 != clientID }
        if change.updated.contains(clientID), phase != .offline {
            outcome.replies.append(YSyncMessage.awareness(awareness.update(for: [clientID])).encode())
        }
        return outcome
    }
}

/// The session's own text (root ``DocumentReplica/textRoot``), read as the text CRDT read it.
extension YDocument {
    /// The text of the session's text root.
    var text: String { text(root: DocumentReplica.textRoot) }

    /// The number of Unicode scalars in the session's text root.
    var count: Int { scalarCount(ofText: DocumentReplica.textRoot) }
}
