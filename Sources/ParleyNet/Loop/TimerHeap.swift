/// A binary min-heap of timers with O(log n) removal of any entry (entries know their index).
///
/// Removal on cancel matters: a server cancels one idle or heartbeat timer per closed
/// connection, and letting dead entries linger until their deadline would grow memory with
/// connection churn.
struct TimerHeap {
    private var entries: ContiguousArray<TimerEntry> = []
    private var nextSequence: UInt64 = 0

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }

    /// The earliest deadline, if any timer is pending.
    var nextDeadline: UInt64? { entries.first?.deadline }

    mutating func makeSequence() -> UInt64 {
        nextSequence &+= 1
        return nextSequence
    }

    mutating func insert(_ entry: TimerEntry) {
        entry.heapIndex = entries.count
        entries.append(entry)
        siftUp(entries.count - 1)
    }

    /// Removes `entry` if it is still in the heap, dropping its task.
    mutating func remove(_ entry: TimerEntry) {
        guard detach(entry) else { return }
        entry.task = nil
    }

    /// Takes `entry` out of the heap, keeping its task; false if it was not in the heap.
    @discardableResult
    private mutating func detach(_ entry: TimerEntry) -> Bool {
        let index = entry.heapIndex
        guard index >= 0, index < entries.count, entries[index] === entry else { return false }
        entry.heapIndex = -1
        let last = entries.count - 1
        if index == last {
            entries.removeLast()
            return true
        }
        entries[index] = entries[last]
        entries[index].heapIndex = index
        entries.removeLast()
        siftDown(index)
        siftUp(index)
        return true
    }

    /// Removes and returns the earliest entry if its deadline is at or before `now`.
    mutating func popExpired(now: UInt64) -> TimerEntry? {
        guard let first = entries.first, first.deadline <= now else { return nil }
        detach(first)
        return first
    }

    /// Removes everything (loop shutdown).
    mutating func removeAll() {
        for entry in entries { entry.heapIndex = -1; entry.task = nil }
        entries.removeAll()
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].firesBefore(entries[parent]) else { return }
            swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        let n = entries.count
        while true {
            let left = 2 * parent + 1
            guard left < n else { return }
            let right = left + 1
            var smallest = left
            if right < n && entries[right].firesBefore(entries[left]) { smallest = right }
            guard entries[smallest].firesBefore(entries[parent]) else { return }
            swapAt(parent, smallest)
            parent = smallest
        }
    }

    private mutating func swapAt(_ a: Int, _ b: Int) {
        entries.swapAt(a, b)
        entries[a].heapIndex = a
        entries[b].heapIndex = b
    }
}
