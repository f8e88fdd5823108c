import Testing

@testable import ParleyText

/// A document with some history: several clients, deletions, non-ASCII text.
private func sampleDocument() throws -> (TextDocument, [UInt8]) {
    var a = TextDocument(clientID: 7)
    var b = TextDocument(clientID: 300)
    try a.insert("héllo wörld", at: 0)
    try sync(&a, &b)
    try b.insert("😀 ", at: 6)
    try a.delete(at: 0, count: 2)
    try sync(&a, &b)
    return (a, a.encodeStateAsUpdate())
}

/// Asserts that applying `update` throws `expected` and leaves `doc` exactly as it was.
private func expectRejected(
    _ update: [UInt8], with expected: ParleyTextError, by doc: TextDocument,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    var copy = doc
    #expect(throws: expected, sourceLocation: sourceLocation) { try copy.applyUpdate(update) }
    #expect(copy.text == doc.text, sourceLocation: sourceLocation)
    #expect(copy.encodeStateAsUpdate() == doc.encodeStateAsUpdate(), sourceLocation: sourceLocation)
    #expect(copy.hasPendingUpdates == doc.hasPendingUpdates, sourceLocation: sourceLocation)
}

/// An update of one string struct from client 5 at clock 0, in root `root`.
private func stringUpdate(_ text: String, root: String = "text", info: UInt8 = 4) -> RawUpdate {
    var raw = RawUpdate()
    raw.varuint(1); raw.varuint(1); raw.varuint(5); raw.varuint(0)
    raw.byte(info)
    raw.varuint(1); raw.string(root)
    raw.string(text)
    return raw
}

@Suite struct UpdateCodecTests {
    @Test func fullStateRoundTripsExactly() throws {
        let (doc, update) = try sampleDocument()
        var copy = TextDocument(clientID: 1)
        try copy.applyUpdate(update)
        #expect(copy.text == doc.text)
        #expect(copy.text == "llo 😀 wörld")
        #expect(copy.encodeStateAsUpdate() == update)
        #expect(copy.encodeStateVector() == doc.encodeStateVector())
    }

    @Test func handWrittenUpdateMatchesTheYjsLayout() throws {
        // What pycrdt writes for `text.insert(0, "hé")` by client 5 (checked against Yrs).
        let expected: [UInt8] = [1, 1, 5, 0, 4, 1, 4] + Array("text".utf8) + [3, 0x68, 0xC3, 0xA9, 0]
        var doc = TextDocument(clientID: 5)
        try doc.insert("hé", at: 0)
        #expect(doc.takeLocalUpdate() == expected)
        var copy = TextDocument(clientID: 6)
        try copy.applyUpdate(expected)
        #expect(copy.text == "hé")
        #expect(copy.stateVector == [5: 2])
    }

    @Test func everyTruncationIsRejectedAndChangesNothing() throws {
        let (_, update) = try sampleDocument()
        var target = TextDocument(clientID: 2)
        try target.insert("mine", at: 0)
        for length in 0..<update.count {
            expectRejected(Array(update.prefix(length)), with: .truncated, by: target)
        }
    }

    @Test func badVarintsAreRejected() throws {
        let doc = TextDocument(clientID: 2)
        expectRejected([0x80, 0x00, 0x00], with: .varintOverlong, by: doc)
        expectRejected([0x00, 0x01, 0x85, 0x80, 0x00, 0x00], with: .varintOverlong, by: doc)
        expectRejected(Array(repeating: 0xFF, count: 10) + [0x01], with: .varintOverflow, by: doc)
        // A client id of ten bytes whose last byte carries more than bit 63.
        var raw = RawUpdate()
        raw.varuint(1); raw.varuint(1)
        raw.bytes += Array(repeating: 0xFF, count: 9) + [0x02]
        expectRejected(raw.bytes, with: .varintOverflow, by: doc)
        // A clock beyond 2^53.
        var huge = RawUpdate()
        huge.varuint(1); huge.varuint(1); huge.varuint(5); huge.varuint(1 << 60)
        expectRejected(huge.bytes, with: .clockOverflow, by: doc)
    }

    @Test func unknownAndUnsupportedContentIsRejected() throws {
        var doc = TextDocument(clientID: 2)
        try doc.insert("keep", at: 0)
        for ref: UInt8 in [11, 12, 20, 31] {
            var raw = stringUpdate("x", info: ref)
            raw.varuint(0)
            expectRejected(raw.bytes, with: .unknownContentRef(ref), by: doc)
        }
        for ref: UInt8 in [2, 3, 5, 6, 7, 8, 9] {
            var raw = stringUpdate("x", info: ref)
            raw.varuint(0)
            expectRejected(raw.bytes, with: .unsupportedContent(ref), by: doc)
        }
    }

    @Test func wrongLengthsAreRejected() throws {
        var doc = TextDocument(clientID: 2)
        try doc.insert("keep", at: 0)
        // A string whose length prefix runs past the end.
        var long = RawUpdate()
        long.varuint(1); long.varuint(1); long.varuint(5); long.varuint(0)
        long.byte(4); long.varuint(1); long.string("text")
        long.varuint(50); long.bytes += Array("short".utf8)
        expectRejected(long.bytes, with: .truncated, by: doc)
        // An empty string struct and an empty deleted run.
        var empty = stringUpdate("")
        empty.varuint(0)
        expectRejected(empty.bytes, with: .invalidLength, by: doc)
        var deleted = RawUpdate()
        deleted.varuint(1); deleted.varuint(1); deleted.varuint(5); deleted.varuint(0)
        deleted.byte(1); deleted.varuint(1); deleted.string("text"); deleted.varuint(0); deleted.varuint(0)
        expectRejected(deleted.bytes, with: .invalidLength, by: doc)
        // A struct count larger than the structs present.
        var count = RawUpdate()
        count.varuint(1); count.varuint(3); count.varuint(5); count.varuint(0)
        count.byte(4); count.varuint(1); count.string("text"); count.string("ab")
        count.varuint(0)
        expectRejected(count.bytes, with: .truncated, by: doc)
    }

    @Test func invalidTextAndForeignParentsAreRejected() throws {
        var doc = TextDocument(clientID: 2)
        try doc.insert("keep", at: 0)
        for bad: [UInt8] in [[0xC3], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xFF]] {
            var raw = RawUpdate()
            raw.varuint(1); raw.varuint(1); raw.varuint(5); raw.varuint(0)
            raw.byte(4); raw.varuint(1); raw.string("text")
            raw.varuint(UInt64(bad.count)); raw.bytes += bad
            raw.varuint(0)
            expectRejected(raw.bytes, with: .invalidUTF8, by: doc)
        }
        var other = stringUpdate("x", root: "title")
        other.varuint(0)
        expectRejected(other.bytes, with: .unsupportedParent, by: doc)
        // A parent given by id (a nested type) and a map key.
        var nested = RawUpdate()
        nested.varuint(1); nested.varuint(1); nested.varuint(5); nested.varuint(0)
        nested.byte(4); nested.varuint(0); nested.varuint(9); nested.varuint(0); nested.string("x")
        nested.varuint(0)
        expectRejected(nested.bytes, with: .unsupportedParent, by: doc)
        var keyed = stringUpdate("x", info: 4 | 0x20)
        keyed.varuint(0)
        expectRejected(keyed.bytes, with: .unsupportedParent, by: doc)
    }

    @Test func originsPointingForwardInTheSameClientAreRejected() throws {
        let doc = TextDocument(clientID: 2)
        var raw = RawUpdate()
        raw.varuint(1); raw.varuint(1); raw.varuint(5); raw.varuint(3)
        raw.byte(4 | 0x80); raw.varuint(5); raw.varuint(3); raw.string("x")
        raw.varuint(0)
        expectRejected(raw.bytes, with: .invalidOrigin, by: doc)
    }

    @Test func trailingBytesAreRejected() throws {
        let (_, update) = try sampleDocument()
        expectRejected(update + [0], with: .trailingBytes, by: TextDocument(clientID: 2))
    }

    @Test func aValidPrefixDoesNotSneakInBeforeALaterError() throws {
        var raw = RawUpdate()
        raw.varuint(2)
        raw.varuint(1); raw.varuint(6); raw.varuint(0)
        raw.byte(4); raw.varuint(1); raw.string("text"); raw.string("fine")
        raw.varuint(1); raw.varuint(5); raw.varuint(0)
        raw.byte(8); raw.varuint(1); raw.string("text")  // ContentAny: not text
        expectRejected(raw.bytes, with: .unsupportedContent(8), by: TextDocument(clientID: 2))
    }

    @Test func garbageCollectedRangesAndSkipsAreUnderstood() throws {
        // Client 5: a GC range of 3 clocks, then an item whose origin is inside it.
        var raw = RawUpdate()
        raw.varuint(1); raw.varuint(2); raw.varuint(5); raw.varuint(0)
        raw.byte(0); raw.varuint(3)
        raw.byte(4 | 0x80); raw.varuint(5); raw.varuint(2); raw.string("gone")
        raw.varuint(0)
        var doc = TextDocument(clientID: 2)
        try doc.applyUpdate(raw.bytes)
        #expect(doc.text == "")
        #expect(doc.stateVector == [5: 7])
        // Everything of client 5 is deleted now and says so in the delete set.
        let full = doc.encodeStateAsUpdate()
        #expect(full.suffix(5) == [1, 5, 1, 0, 7])

        // Client 8: a skip over clocks 0..<2, then a struct that must wait for them.
        var skip = RawUpdate()
        skip.varuint(1); skip.varuint(2); skip.varuint(8); skip.varuint(0)
        skip.byte(10); skip.varuint(2)
        skip.byte(4 | 0x80); skip.varuint(8); skip.varuint(1); skip.string("z")
        skip.varuint(0)
        try doc.applyUpdate(skip.bytes)
        #expect(doc.hasPendingUpdates)
        var first = RawUpdate()
        first.varuint(1); first.varuint(1); first.varuint(8); first.varuint(0)
        first.byte(4); first.varuint(1); first.string("text"); first.string("xy")
        first.varuint(0)
        try doc.applyUpdate(first.bytes)
        #expect(!doc.hasPendingUpdates)
        #expect(doc.text == "xyz")
    }

    @Test func malformedStateVectorsAreRejected() throws {
        let (doc, _) = try sampleDocument()
        #expect(throws: ParleyTextError.truncated) { try doc.encodeStateAsUpdate(since: [2, 1]) }
        #expect(throws: ParleyTextError.trailingBytes) { try doc.encodeStateAsUpdate(since: [0, 0]) }
        #expect(throws: ParleyTextError.varintOverlong) { try doc.encodeStateAsUpdate(since: [0x81, 0]) }
    }

    @Test func randomCorruptionNeverCrashesAndNeverHalfApplies() throws {
        let (_, update) = try sampleDocument()
        var target = TextDocument(clientID: 2)
        try target.insert("base", at: 0)
        var generator = SplitMix(seed: 42)
        var rejected = 0
        for _ in 0..<3000 {
            var bytes = update
            for _ in 0...(generator.next() % 3) {
                let index = Int(generator.next() % UInt64(bytes.count))
                switch generator.next() % 3 {
                case 0: bytes[index] = UInt8(truncatingIfNeeded: generator.next())
                case 1: bytes.remove(at: index)
                default: bytes.insert(UInt8(truncatingIfNeeded: generator.next()), at: index)
                }
            }
            var copy = target
            do {
                try copy.applyUpdate(bytes)
                // Accepted: the result must still be a consistent document.
                #expect(copy.count == copy.text.unicodeScalars.count)
                var reloaded = TextDocument(clientID: 3)
                try reloaded.applyUpdate(copy.encodeStateAsUpdate())
                #expect(reloaded.text == copy.text)
            } catch {
                rejected += 1
                #expect(copy.text == target.text)
                #expect(copy.encodeStateAsUpdate() == target.encodeStateAsUpdate())
            }
        }
        #expect(rejected > 1000)
    }

    @Test func errorCodesAreStable() {
        #expect(ParleyTextError.truncated.code == "truncated")
        #expect(ParleyTextError.unknownContentRef(12).code == "unknown_content")
        #expect(ParleyTextError.unsupportedContent(8).code == "unsupported_content")
        #expect(ParleyTextError.varintOverlong.code == "varint_overlong")
    }
}

/// A small deterministic generator for the corruption test.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
