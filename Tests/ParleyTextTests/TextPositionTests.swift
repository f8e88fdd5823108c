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
}
