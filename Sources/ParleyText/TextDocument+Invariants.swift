/// Structural self-checks, used by the tests after randomised operations.
extension TextDocument {
    /// Describes the first broken internal invariant, or returns nil when all hold.
    func invariantViolation() -> String? {
        // The list, walked from the head, visits every live item once, with matching back links.
        var seen = 0
        var previous: Int32 = -1
        var current = head
        var visible = 0
        while current >= 0 {
            let item = items[Int(current)]
            if item.kind == .free { return "free item \(current) linked in the list" }
            if item.left != previous { return "item \(current) has left \(item.left), expected \(previous)" }
            visible += Int(item.width)
            seen += 1
            previous = current
            current = item.right
            if seen > items.count { return "list has a cycle" }
        }
        if seen != itemCount { return "list holds \(seen) items, store \(itemCount)" }
        if visible != count { return "count \(count) but list width \(visible)" }
        // The index lists the same items in the same order, with their widths.
        var indexed: [Int32] = []
        var indexedVisible = 0
        for chunk in order {
            let value = chunks[Int(chunk)]
            var sum = 0
            for (slot, item) in value.items.enumerated() {
                if items[Int(item)].chunk != chunk { return "item \(item) not in chunk \(chunk)" }
                if value.widths[slot] != items[Int(item)].width { return "stale width of item \(item)" }
                sum += Int(value.widths[slot])
            }
            if sum != value.visible { return "chunk \(chunk) visible \(value.visible), widths \(sum)" }
            indexedVisible += sum
            indexed += value.items
        }
        if indexedVisible != count { return "index visible \(indexedVisible) != count \(count)" }
        var listed: [Int32] = []
        current = head
        while current >= 0 { listed.append(current); current = items[Int(current)].right }
        if listed != indexed { return "index order differs from list order" }
        // Each run names the item that holds its first clock.
        for store in clients {
            for run in store.runs where run.first >= 0 {
                let item = items[Int(run.first)]
                if item.kind == .free || item.clock > run.clock || item.endClock <= run.clock {
                    return "run at clock \(run.clock) of client \(store.id) names item \(run.first) [\(item.clock), \(item.endClock))"
                }
            }
        }
        // Every clock of every client is found in an item (or a collected range) that holds it.
        for (index, store) in clients.enumerated() {
            var clock = 0
            while clock < store.state {
                let found = piece(client: Int32(index), clock: clock)
                if found == Self.gcMarker {
                    let run = store.runs[store.runIndex(containing: clock)]
                    clock = run.clock + run.length
                    continue
                }
                let item = items[Int(found)]
                if item.kind == .free || item.client != Int32(index) || item.clock > clock || item.endClock <= clock {
                    return "clock \(clock) of client \(store.id) resolves to item \(found) [\(item.clock), \(item.endClock))"
                }
                clock = item.endClock
            }
        }
        return nil
    }
}
