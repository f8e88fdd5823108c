/// Puts a room's new messages in seq order exactly once, whichever way they arrive (live
/// event, history page, send response, duplicates, reordering): Sans-I/O.
///
/// It knows the highest seq delivered; anything at or below is a duplicate, the next seq is
/// delivered at once, later ones wait until the gap before them is filled from history.
struct RoomSequencer: Sendable, Equatable {
    /// The highest seq handed to the app; nil until the baseline is known.
    private(set) var delivered: Int64?
    /// Messages past a gap, by seq.
    private(set) var waiting: [Int64: ChatMessage] = [:]

    init(after baseline: Int64?) { delivered = baseline }

    /// Whether messages wait behind a gap (or the baseline is unknown) and history must be read.
    var needsFill: Bool { delivered == nil || !waiting.isEmpty }

    /// Sets the baseline when it was unknown; returns what can now be delivered.
    mutating func setBaseline(_ seq: Int64) -> [ChatMessage] {
        if delivered == nil { delivered = seq }
        return drain()
    }

    /// Takes one message; returns those now deliverable, in order.
    mutating func receive(_ message: ChatMessage) -> [ChatMessage] {
        if let delivered, message.seq <= delivered { return [] }
        waiting[message.seq] = message
        return drain()
    }

    /// Takes a history page read after a seq at or below ``delivered`` (ascending); returns
    /// those now deliverable, in order.
    ///
    /// History leaves thread-only replies out, so a seq missing between two seqs of the page
    /// is no lost message: one that arrived live is delivered in its place, the others are
    /// passed over (waiting for them would stall the room for good).
    mutating func receive(page: [ChatMessage]) -> [ChatMessage] {
        var out: [ChatMessage] = []
        for message in page {
            if let delivered, message.seq > delivered + 1 {
                for seq in (delivered + 1)..<message.seq {
                    if let live = waiting.removeValue(forKey: seq) { out.append(live) }
                }
                self.delivered = message.seq - 1
            }
            out += receive(message)
        }
        return out
    }

    /// Whether an update to `seq` concerns a message already delivered; otherwise it
    /// replaces the waiting copy (so the newest content is delivered).
    mutating func isDelivered(update message: ChatMessage) -> Bool {
        if let delivered, message.seq <= delivered { return true }
        if waiting[message.seq] != nil { waiting[message.seq] = message }
        return false
    }

    private mutating func drain() -> [ChatMessage] {
        guard var next = delivered else { return [] }
        var out: [ChatMessage] = []
        while let message = waiting.removeValue(forKey: next + 1) {
            out.append(message)
            next += 1
        }
        delivered = next
        return out
    }
}
