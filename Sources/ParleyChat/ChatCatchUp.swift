import ParleyChannels

/// What this node delivered of each room's `message.created` events to its own subscribers,
/// so that when the cluster bus comes back after an outage the node delivers the messages
/// other nodes sent meanwhile: each once, in seq order (a room's seqs are dense).
///
/// A value kept under the chat service's lock; the service reads the store. While a room is
/// being caught up, its events from the bus are held back and merged in, so a message sent
/// right after the bus came back does not overtake the missed ones.
struct ChatCatchUp: Sendable {
    /// A room of an app.
    struct Room: Hashable, Sendable {
        var app: String
        var room: String
    }

    /// A message read back or held back: its seq and its event.
    struct Delivery: Sendable {
        var seq: Int64
        var event: HubEvent
    }

    private struct Entry {
        /// Every seq up to here was delivered here (or came before this node heard of the room).
        var floor: Int64
        /// Seqs delivered beyond the floor.
        var above: Set<Int64> = []
        /// Seqs a catch-up delivered: their bus copy, if one still comes, is dropped.
        var replayed: Set<Int64> = []
        /// While catching up: the bus's events for the room, held back.
        var held: [Int64: HubEvent]?

        func delivered(_ seq: Int64) -> Bool { seq <= floor || above.contains(seq) }

        mutating func record(_ seq: Int64) {
            guard !delivered(seq) else { return }
            above.insert(seq)
            while floor != .min, above.remove(floor + 1) != nil { floor += 1 }
            // A hole that never fills (a lost event with no catch-up since) must not grow the set for ever.
            if above.count > ChatCatchUp.maxAbove, let top = above.max() {
                floor = top
                above = []
            }
        }
    }

    static let maxAbove = 4096
    private var rooms: [Room: Entry] = [:]
    /// When the bus was lost (milliseconds since the epoch), until the catch-up starts.
    var lostAt: Int64?

    /// This node published message `seq` of `room` (delivered to its subscribers at once).
    mutating func published(_ room: Room, seq: Int64) {
        guard rooms[room] != nil else {
            rooms[room] = Entry(floor: seq)
            return
        }
        rooms[room]?.record(seq)
    }

    /// Message `seq` of `room` came from another node: whether to deliver it now (false: a
    /// catch-up delivered it already, or is under way and will deliver it in order).
    mutating func received(_ room: Room, seq: Int64, event: HubEvent) -> Bool {
        guard var entry = rooms[room] else {
            rooms[room] = Entry(floor: seq)
            return true
        }
        defer { rooms[room] = entry }
        if entry.replayed.remove(seq) != nil { return false }
        if entry.held != nil {
            if !entry.delivered(seq) { entry.held?[seq] = event }
            return false
        }
        entry.record(seq)
        return true
    }

    /// Starts catching up `list`: their bus events are held back from now on. Answers each
    /// room's floor, nil for a room this node has delivered nothing of.
    mutating func begin(_ list: [Room]) -> [Room: Int64?] {
        var floors: [Room: Int64?] = [:]
        for room in list {
            var entry = rooms[room] ?? Entry(floor: .min)
            // A catch-up already under way keeps what it holds; both deliver each seq once.
            if entry.held == nil { entry.held = [:] }
            floors[room] = entry.floor == .min ? nil : entry.floor
            rooms[room] = entry
        }
        return floors
    }

    /// Ends a room's catch-up with the messages read from the store after its floor (all of
    /// them, oldest first): answers what to deliver now, in seq order, each once.
    mutating func finish(_ room: Room, read: [Delivery]) -> [HubEvent] {
        guard var entry = rooms[room] else { return [] }
        var pending: [Int64: (event: HubEvent, fromStore: Bool)] = [:]
        for (seq, event) in entry.held ?? [:] where !entry.delivered(seq) { pending[seq] = (event, false) }
        for item in read where !entry.delivered(item.seq) && pending[item.seq] == nil { pending[item.seq] = (item.event, true) }
        entry.held = nil
        let order = pending.keys.sorted()
        // Bus copies of replayed messages come within moments if at all; the set stays small.
        if entry.replayed.count > ChatCatchUp.maxAbove { entry.replayed = [] }
        for seq in order {
            entry.record(seq)
            if pending[seq]!.fromStore { entry.replayed.insert(seq) }
        }
        // Everything up to the newest message read is delivered now.
        if let top = read.last?.seq, top > entry.floor {
            entry.floor = top
            entry.above = entry.above.filter { $0 > top }
            while entry.above.remove(entry.floor + 1) != nil { entry.floor += 1 }
        }
        if entry.floor == .min, let first = entry.above.min() {
            entry.floor = first
            entry.above.remove(first)
            while entry.above.remove(entry.floor + 1) != nil { entry.floor += 1 }
        }
        rooms[room] = entry.floor == .min ? nil : entry
        return order.map { pending[$0]!.event }
    }

    /// Forgets the rooms that are not in `keep` (no subscriber here any more).
    mutating func retain(_ keep: Set<Room>) {
        rooms = rooms.filter { keep.contains($0.key) }
    }
}
