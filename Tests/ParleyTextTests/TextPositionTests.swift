import ParleyText
import Testing

/// Ids of characters and their positions: the base of carets that follow the text.
struct TextPositionTests {
    @Test func everyPositionMapsToAnIdAndBack() throws {
        var document = TextDocument(clientID: 1)
        var rng = SplitMix(seed: 3)
        var mirror: [Unicode.Scalar] = []
        let alphabet: [Unicode.Scalar] = ["a", "b", "é", "✓", "😀", " "]
        for _ in 0..<600 {
            if mirror.count > 10 && rng.next() % 3 == 0 {
                let at = Int(rng.next() % UInt64(mirror.count - 3))
                try document.delete(at: at, count: 3)
                mirror.removeSubrange(at..<(at + 3))
            } else {
                let at = Int(rng.next() % UInt64(mirror.count + 1))
                let scalar = alphabet[Int(rng.next() % UInt64(alphabet.count))]
                try document.insert(String(scalar) + "x", at: at)
                mirror.insert(contentsOf: [scalar, "x"], at: at)
            }
        }
        #expect(document.count == mirror.count)
        for position in 0..<document.count {
            let found0 = document.itemID(atScalar: position)
            let id = try #require(found0)
            let found = try #require(document.scalarPosition(of: id))
            #expect(found.position == position && !found.isDeleted)
        }
        let end = document.count
        let atEnd = document.itemID(atScalar: end), before = document.itemID(atScalar: -1)
        #expect(atEnd == nil && before == nil)
        #expect(document.scalarPosition(of: ItemID(client: 77, clock: 0)) == nil)
    }

    @Test func anIdKeepsItsCharacterThroughOthersEditsAndMarksItsDeletion() throws {
        var mine = TextDocument(clientID: 1)
        try mine.insert("héllo😀 world", at: 0)
        let space = mine.itemID(atScalar: 6)  // "😀" is 5; " " is 6
        let id = try #require(space)
        var theirs = TextDocument(clientID: 2)
        try theirs.applyUpdate(mine.encodeStateAsUpdate())
        try theirs.insert("¡¡", at: 0)
        try theirs.delete(at: 8, count: 1)  // the space
        try mine.applyUpdate(theirs.encodeStateAsUpdate())
        #expect(mine.text == "¡¡héllo😀world")
        let found = try #require(mine.scalarPosition(of: id))
        #expect(found.isDeleted && found.position == 8)
        let next = mine.itemID(atScalar: 8)
        let w = try #require(next)
        #expect(mine.scalarPosition(of: w)?.position == 8)
    }

    @Test func anyIdAPeerMightSendResolvesInsideTheTextOrToNothing() throws {
        var a = TextDocument(clientID: 1), b = TextDocument(clientID: 2)
        var rng = SplitMix(seed: 11)
        for round in 0..<300 {
            var doc = round % 2 == 0 ? a : b
            if doc.count > 4 && rng.next() % 3 == 0 {
                try doc.delete(at: Int(rng.next() % UInt64(doc.count - 2)), count: 2)
            } else {
                try doc.insert(round % 5 == 0 ? "😀é" : "ab", at: Int(rng.next() % UInt64(doc.count + 1)))
            }
            if round % 2 == 0 { a = doc } else { b = doc }
            if round % 7 == 0 {
                try a.applyUpdate(b.encodeStateAsUpdate())
                try b.applyUpdate(a.encodeStateAsUpdate())
            }
        }
        try a.applyUpdate(b.encodeStateAsUpdate())
        let clocks = a.stateVector
        for client: UInt64 in [1, 2, 3] {
            for clock in -2..<((clocks[client] ?? 0) + 3) {
                guard let found = a.scalarPosition(of: ItemID(client: client, clock: clock)) else {
                    #expect(clock < 0 || clock >= (clocks[client] ?? 0) || client == 3)
                    continue
                }
                #expect(found.position >= 0 && found.position <= a.count)
                if !found.isDeleted {
                    let back = a.itemID(atScalar: found.position)
                    #expect(back?.client == client)
                }
            }
        }
    }
}
