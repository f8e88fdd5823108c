import Testing

@testable import ParleyText

@Suite struct LocalEditingTests {
    @Test func insertAndDeleteByScalarPosition() throws {
        var doc = TextDocument(clientID: 1)
        try doc.insert("hello world", at: 0)
        try doc.insert(",", at: 5)
        try doc.delete(at: 0, count: 1)
        try doc.insert("H", at: 0)
        try doc.delete(at: 6, count: 6)
        try doc.insert("!", at: doc.count)
        #expect(doc.text == "Hello,!")
        #expect(doc.count == 7)
    }

    @Test func positionsCountScalarsAndClocksCountUTF16() throws {
        var doc = TextDocument(clientID: 9)
        try doc.insert("a😀é€", at: 0)
        #expect(doc.count == 4)
        #expect(doc.stateVector[9] == 5)  // the emoji takes two UTF-16 clocks
        try doc.insert("|", at: 2)  // after the emoji, never inside it
        #expect(doc.text == "a😀|é€")
        try doc.delete(at: 1, count: 1)
        #expect(doc.text == "a|é€")
        try doc.insert("🎉🎉", at: 4)
        try doc.delete(at: 4, count: 1)
        #expect(doc.text == "a|é€🎉")
        #expect(doc.count == 5)
    }

    @Test func outOfRangeEditsThrowAndChangeNothing() throws {
        var doc = TextDocument(clientID: 1)
        try doc.insert("abc", at: 0)
        #expect(throws: ParleyTextError.positionOutOfRange) { try doc.insert("x", at: 4) }
        #expect(throws: ParleyTextError.positionOutOfRange) { try doc.insert("x", at: -1) }
        #expect(throws: ParleyTextError.positionOutOfRange) { try doc.delete(at: 2, count: 2) }
        #expect(throws: ParleyTextError.positionOutOfRange) { try doc.delete(at: -1, count: 1) }
        #expect(doc.text == "abc")
    }

    @Test func sequentialTypingStaysOneItemAndOneStruct() throws {
        var doc = TextDocument(clientID: 3)
        for (index, char) in "typing along".enumerated() {
            try doc.insert(String(char), at: index)
        }
        #expect(doc.itemCount == 1)
        let update = doc.encodeStateAsUpdate()
        // 1 client section, 1 struct, client 3, clock 0, info 4 (string, parent by root name).
        #expect(Array(update.prefix(5)) == [1, 1, 3, 0, 4])
        var copy = TextDocument(clientID: 4)
        try copy.applyUpdate(update)
        #expect(copy.text == "typing along")
    }

    @Test func insertingInsideARunSplitsIt() throws {
        var doc = TextDocument(clientID: 1)
        try doc.insert("abcdef", at: 0)
        try doc.insert("XY", at: 3)
        #expect(doc.text == "abcXYdef")
        #expect(doc.itemCount == 3)
        try doc.delete(at: 1, count: 6)
        #expect(doc.text == "af")
        var copy = TextDocument(clientID: 2)
        try copy.applyUpdate(doc.encodeStateAsUpdate())
        #expect(copy.text == "af")
        #expect(copy.stateVector == [1: 8])
    }

    @Test func localUpdatesCarryEachTransactionOnce() throws {
        var doc = TextDocument(clientID: 5)
        #expect(doc.takeLocalUpdate() == nil)
        try doc.insert("abc", at: 0)
        let first = try take(&doc)
        #expect(doc.takeLocalUpdate() == nil)
        try doc.delete(at: 1, count: 1)
        let second = try take(&doc)
        // The second update carries only a delete set: no structs.
        #expect(second.first == 0)
        var peer = TextDocument(clientID: 6)
        try peer.applyUpdate(first)
        try peer.applyUpdate(second)
        #expect(peer.text == "ac")
    }
}

@Suite struct ConcurrencyTests {
    @Test func concurrentInsertsAtTheSameSpotOrderByClientID() throws {
        for (first, second) in [(UInt64(1), UInt64(2)), (2, 1), (1000, 7)] {
            var a = TextDocument(clientID: first)
            var b = TextDocument(clientID: second)
            try a.insert("[]", at: 0)
            try sync(&a, &b)
            try a.insert("A", at: 1)
            try b.insert("B", at: 1)
            try sync(&a, &b)
            #expect(a.text == b.text)
            // Yjs puts the item of the lower client id first.
            #expect(a.text == (first < second ? "[AB]" : "[BA]"))
        }
    }

    @Test func concurrentRunsAtTheStartInterleaveNever() throws {
        var a = TextDocument(clientID: 10)
        var b = TextDocument(clientID: 20)
        try a.insert("aaa", at: 0)
        try a.insert("AAA", at: 3)
        try b.insert("bbb", at: 0)
        try b.insert("BBB", at: 0)
        try sync(&a, &b)
        #expect(a.text == b.text)
        #expect(a.text == "aaaAAABBBbbb")
    }

    @Test func deletingTextThatOthersConcurrentlyEditedInside() throws {
        var a = TextDocument(clientID: 1)
        var b = TextDocument(clientID: 2)
        try a.insert("hello", at: 0)
        try sync(&a, &b)
        try a.insert("X", at: 2)  // he|X|llo
        try b.delete(at: 1, count: 3)  // h___o
        try sync(&a, &b)
        #expect(a.text == "hXo")
        #expect(b.text == "hXo")
        // Concurrent deletes of overlapping ranges.
        try a.delete(at: 0, count: 2)
        try b.delete(at: 1, count: 2)
        try sync(&a, &b)
        #expect(a.text == "")
        #expect(a.text == b.text)
    }

    @Test func updatesApplyInEveryOrderToTheSameText() throws {
        var a = TextDocument(clientID: 1)
        var b = TextDocument(clientID: 2)
        var c = TextDocument(clientID: 3)
        var updates: [[UInt8]] = []
        try a.insert("base text", at: 0)
        updates.append(try take(&a))
        try b.applyUpdate(updates[0])
        try c.applyUpdate(updates[0])
        try b.insert("B1", at: 4)
        updates.append(try take(&b))
        try c.applyUpdate(updates[1])
        try c.delete(at: 2, count: 5)
        try c.insert("ç😀", at: 2)
        updates.append(try take(&c))
        try a.insert("A!", at: 9)
        try a.delete(at: 0, count: 1)
        updates.append(try take(&a))
        try b.insert("B2", at: 0)
        updates.append(try take(&b))

        var reference = TextDocument(clientID: 99)
        for update in updates { try reference.applyUpdate(update) }
        #expect(!reference.hasPendingUpdates)
        var orders = 0
        for permutation in permutations(of: Array(updates.indices)) {
            var replica = TextDocument(clientID: 50)
            for index in permutation { try replica.applyUpdate(updates[index]) }
            #expect(replica.text == reference.text)
            #expect(!replica.hasPendingUpdates)
            #expect(replica.encodeStateVector() == reference.encodeStateVector())
            orders += 1
        }
        #expect(orders == 120)
    }

    @Test func structsWaitUntilTheirDependenciesArrive() throws {
        var a = TextDocument(clientID: 1)
        try a.insert("abc", at: 0)
        let first = try take(&a)
        try a.insert("def", at: 3)
        let second = try take(&a)
        var b = TextDocument(clientID: 2)
        try b.insert("xyz", at: 0)
        try b.applyUpdate(first)
        try b.insert("!", at: 1)  // origin inside a's text
        let third = try take(&b)

        var c = TextDocument(clientID: 3)
        try c.applyUpdate(third)
        try c.applyUpdate(second)
        // b's own "xyz" needs nothing; its "!" and a's "def" wait for a's "abc".
        #expect(c.text == "xyz")
        #expect(c.hasPendingUpdates)
        #expect(c.stateVector == [2: 3])
        try c.applyUpdate(first)
        #expect(!c.hasPendingUpdates)
        var expected = b
        try expected.applyUpdate(second)
        #expect(c.text == expected.text)
    }

    @Test func deletionsOfUnseenClocksWaitToo() throws {
        var a = TextDocument(clientID: 1)
        try a.insert("keep gone", at: 0)
        let insert = try take(&a)
        try a.delete(at: 4, count: 5)
        let delete = try take(&a)
        var b = TextDocument(clientID: 2)
        try b.applyUpdate(delete)
        #expect(b.hasPendingUpdates)
        try b.applyUpdate(insert)
        #expect(b.text == "keep")
        #expect(!b.hasPendingUpdates)
    }

    @Test func duplicateAndOverlappingUpdatesAreIdempotent() throws {
        var a = TextDocument(clientID: 1)
        try a.insert("one", at: 0)
        let first = try take(&a)
        try a.insert(" two", at: 3)
        let second = try take(&a)
        let full = a.encodeStateAsUpdate()
        var b = TextDocument(clientID: 2)
        try b.applyUpdate(first)
        try b.applyUpdate(full)  // overlaps what b has: integrated with an offset
        try b.applyUpdate(second)
        try b.applyUpdate(first)
        #expect(b.text == "one two")
        #expect(b.encodeStateAsUpdate() == a.encodeStateAsUpdate())
    }

    @Test func stateVectorDiffCarriesOnlyWhatIsMissing() throws {
        var a = TextDocument(clientID: 1)
        var b = TextDocument(clientID: 2)
        try a.insert("shared", at: 0)
        try sync(&a, &b)
        try a.insert(" from a", at: 6)
        try b.insert("b says ", at: 0)
        _ = a.takeLocalUpdate()
        _ = b.takeLocalUpdate()
        let toB = try a.encodeStateAsUpdate(since: b.encodeStateVector())
        let toA = try b.encodeStateAsUpdate(since: a.encodeStateVector())
        #expect(toB.count < a.encodeStateAsUpdate().count)
        try b.applyUpdate(toB)
        try a.applyUpdate(toA)
        #expect(a.text == "b says shared from a")
        #expect(a.text == b.text)
        #expect(a.encodeStateVector() == b.encodeStateVector())
        // In sync: a diff against the peer's state holds no structs.
        let nothing = try a.encodeStateAsUpdate(since: b.encodeStateVector())
        #expect(nothing == [0, 0])
    }

    @Test func aSurrogatePairCutByARemoteDeleteBecomesReplacementCharacters() throws {
        var a = TextDocument(clientID: 1)
        try a.insert("😀", at: 0)
        var b = TextDocument(clientID: 2)
        try b.applyUpdate(try take(&a))
        // A hostile delete set removing only the low half of the pair (client 1, clock 1).
        var raw = RawUpdate()
        raw.varuint(0)
        raw.varuint(1); raw.varuint(1); raw.varuint(1); raw.varuint(1); raw.varuint(1)
        try b.applyUpdate(raw.bytes)
        #expect(b.text == "\u{FFFD}")
        var c = TextDocument(clientID: 3)
        try c.applyUpdate(b.encodeStateAsUpdate())
        #expect(c.text == "\u{FFFD}")
    }
}

func permutations<T>(of elements: [T]) -> [[T]] {
    guard elements.count > 1 else { return [elements] }
    var result: [[T]] = []
    for index in elements.indices {
        var rest = elements
        let head = rest.remove(at: index)
        for tail in permutations(of: rest) { result.append([head] + tail) }
    }
    return result
}

@Suite struct RandomisedReplicaTests {
    /// Three replicas edit at random (deletes included, so runs split and merge), exchange
    /// updates in random order with duplicates, and must converge with intact internals.
    @Test(arguments: 0..<40)
    func randomReplicasConvergeAndStayConsistent(seed: Int) throws {
        var generator = SplitMix(seed: UInt64(seed) &* 7919 &+ 1)
        let alphabet = ["a", "b", "cd", "é", "😀", "xyz", "€", " "]
        var replicas = (0..<3).map { TextDocument(clientID: UInt64(seed * 3 + $0 + 1)) }
        var inboxes: [[[UInt8]]] = [[], [], []]
        var log: [[UInt8]] = []
        for _ in 0..<60 {
            let who = Int(generator.next() % 3)
            for _ in 0...(generator.next() % 3) {
                let length = replicas[who].count
                if length > 0 && generator.next() % 5 < 2 {
                    let position = Int(generator.next() % UInt64(length))
                    let count = min(length - position, 1 + Int(generator.next() % 4))
                    try replicas[who].delete(at: position, count: count)
                } else {
                    let text = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                    try replicas[who].insert(text, at: Int(generator.next() % UInt64(length + 1)))
                }
            }
            if let update = replicas[who].takeLocalUpdate() {
                log.append(update)
                for other in 0..<3 where other != who { inboxes[other].append(update) }
            }
            for target in 0..<3 where !inboxes[target].isEmpty && generator.next() % 2 == 0 {
                let pick = Int(generator.next() % UInt64(inboxes[target].count))
                let update = inboxes[target].remove(at: pick)
                try replicas[target].applyUpdate(update)
                if generator.next() % 8 == 0 { try replicas[target].applyUpdate(update) }
            }
            for replica in replicas {
                let problem = replica.invariantViolation()
                #expect(problem == nil, "\(problem ?? "")")
                if problem != nil { return }
            }
        }
        for target in 0..<3 {
            for update in inboxes[target].reversed() { try replicas[target].applyUpdate(update) }
            #expect(!replicas[target].hasPendingUpdates)
            #expect(replicas[target].invariantViolation() == nil)
        }
        #expect(replicas[0].text == replicas[1].text)
        #expect(replicas[1].text == replicas[2].text)
        var reloaded = TextDocument(clientID: 999)
        try reloaded.applyUpdate(replicas[0].encodeStateAsUpdate())
        #expect(reloaded.text == replicas[0].text)
        #expect(reloaded.encodeStateVector() == replicas[0].encodeStateVector())
    }
}
