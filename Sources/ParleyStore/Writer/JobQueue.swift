/// A first-in, first-out queue that hands out elements without shifting the array each time.
struct JobQueue<Element> {
    private var storage: [Element] = []
    private var head = 0

    /// Whether nothing is waiting.
    var isEmpty: Bool { head == storage.count }

    /// How many elements are waiting.
    var count: Int { storage.count - head }

    /// Adds an element at the back.
    mutating func append(_ element: Element) {
        storage.append(element)
    }

    /// Removes and returns the front element.
    mutating func popFirst() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        }
        return element
    }

    /// Removes and returns up to `limit` elements from the front, oldest first.
    mutating func popFirst(upTo limit: Int) -> [Element] {
        let end = min(storage.count, head + limit)
        let batch = Array(storage[head..<end])
        head = end
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        }
        return batch
    }
}
