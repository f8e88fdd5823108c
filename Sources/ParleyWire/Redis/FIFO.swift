/// A first-in first-out queue with amortized O(1) removal from the front: the array's
/// consumed prefix is dropped once it is half the storage.
struct FIFO<Element: Sendable>: Sendable {
    private var storage: [Element] = []
    private var head = 0

    var isEmpty: Bool { head == storage.count }
    var count: Int { storage.count - head }
    var first: Element? { isEmpty ? nil : storage[head] }

    mutating func append(_ element: Element) { storage.append(element) }

    mutating func popFirst() -> Element? {
        guard !isEmpty else { return nil }
        let element = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32 && head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Changes the first element matching `predicate`; returns whether there was one.
    mutating func replaceFirst(where predicate: (Element) -> Bool, with change: (inout Element) -> Void) -> Bool {
        guard let index = storage[head...].firstIndex(where: predicate) else { return false }
        change(&storage[index])
        return true
    }
}
