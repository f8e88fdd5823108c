import Testing

@testable import ParleyWire

@Suite struct RESPParserTests {
    private func values(_ wire: String, limits: RESPParser.Limits = .init()) throws -> [RESPValue] {
        var parser = RESPParser(limits: limits)
        parser.receive(Array(wire.utf8))
        var found: [RESPValue] = []
        while let value = try parser.next() { found.append(value) }
        return found
    }

    private func failure(_ wire: String, limits: RESPParser.Limits = .init()) -> RESPError.Code? {
        do {
            _ = try values(wire, limits: limits)
            return nil
        } catch let error as RESPError {
            return error.code
        } catch {
            return nil
        }
    }

    @Test func readsEveryRESP2Type() throws {
        #expect(
            try values("+OK\r\n-ERR wrong type\r\n:-42\r\n$5\r\nhe\0lo\r\n$0\r\n\r\n$-1\r\n*-1\r\n") == [
                .simpleString("OK"), .error("ERR wrong type"), .integer(-42), .bulkString(Array("he\0lo".utf8)),
                .bulkString([]), .null, .null
            ])
    }

    @Test func readsAPubSubMessageAsRedisSendsIt() throws {
        let wire = "*3\r\n$7\r\nmessage\r\n$13\r\nparley:events\r\n$4\r\n\u{1}\u{2}\r\n\r\n"
        #expect(
            try values(wire) == [
                .array([
                    .bulkString(Array("message".utf8)), .bulkString(Array("parley:events".utf8)),
                    .bulkString([1, 2, 13, 10])
                ])
            ])
    }

    @Test func readsRESP3Types() throws {
        let wire =
            "_\r\n#t\r\n#f\r\n,3.5\r\n,-inf\r\n(12345678901234567890123\r\n!9\r\nERR oops!\r\n=8\r\ntxt:some\r\n"
            + "%2\r\n+a\r\n:1\r\n+b\r\n*0\r\n~1\r\n:7\r\n>2\r\n+message\r\n+hi\r\n"
        #expect(
            try values(wire) == [
                .null, .boolean(true), .boolean(false), .double(3.5), .double(-.infinity), .bigNumber("12345678901234567890123"),
                .error("ERR oops!"), .verbatim(format: "txt", text: Array("some".utf8)),
                .map([RESPPair(key: .simpleString("a"), value: .integer(1)), RESPPair(key: .simpleString("b"), value: .array([]))]),
                .set([.integer(7)]), .push([.simpleString("message"), .simpleString("hi")])
            ])
    }

    @Test func dropsAttributesAndKeepsTheValueTheyAnnotate() throws {
        let wire = "|1\r\n+key-popularity\r\n%1\r\n$1\r\na\r\n,0.19\r\n*2\r\n:2\r\n|0\r\n:3\r\n"
        #expect(try values(wire) == [.array([.integer(2), .integer(3)])])
    }

    @Test func nestedAggregatesAssembleInOrder() throws {
        #expect(
            try values("*2\r\n*2\r\n:1\r\n*0\r\n%1\r\n+k\r\n*1\r\n_\r\n") == [
                .array([.array([.integer(1), .array([])]), .map([RESPPair(key: .simpleString("k"), value: .array([.null]))])])
            ])
    }

    @Test func theSameValuesWhateverTheReadsAre() throws {
        let wire = Array("*3\r\n$7\r\nmessage\r\n$1\r\nc\r\n$10\r\n0123456789\r\n+PONG\r\n%1\r\n:1\r\n~2\r\n#t\r\n,1e-05\r\n".utf8)
        let whole = try values(String(decoding: wire, as: UTF8.self))
        #expect(whole.count == 3)
        for cut in 0...wire.count {
            for cut2 in cut...wire.count {
                var parser = RESPParser()
                var found: [RESPValue] = []
                for piece in [wire[..<cut], wire[cut..<cut2], wire[cut2...]] {
                    parser.receive(Array(piece))
                    while let value = try parser.next() { found.append(value) }
                }
                #expect(found == whole, "cut at \(cut), \(cut2)")
            }
        }
    }

    @Test func anIncompleteValueWaitsAndConsumesNothingItCannotFinish() throws {
        var parser = RESPParser()
        parser.receive(Array("$10\r\n01234".utf8))
        #expect(try parser.next() == nil)
        #expect(parser.isMidValue)
        parser.receive(Array("56789\r".utf8))
        #expect(try parser.next() == nil)
        parser.receive(Array("\n".utf8))
        #expect(try parser.next() == .bulkString(Array("0123456789".utf8)))
        #expect(!parser.isMidValue)
    }

    @Test func malformedInputFailsWithAStableCode() {
        #expect(failure("?x\r\n") == .unknownType)
        #expect(failure(":12a\r\n") == .invalidNumber)
        #expect(failure(":99999999999999999999\r\n") == .invalidNumber)
        #expect(failure("$-2\r\n") == .invalidNumber)
        #expect(failure("%-1\r\n") == .invalidNumber)
        #expect(failure("!-1\r\n") == .invalidNumber)
        #expect(failure("#x\r\n") == .invalidNumber)
        #expect(failure(",0x1p3\r\n") == .invalidNumber)
        #expect(failure("+OK\rX") == .invalidFraming)
        #expect(failure("+OK\n") == .invalidFraming)
        #expect(failure("$3\r\nabcd\r\n") == .invalidFraming)
        #expect(failure("=2\r\nab\r\n") == .invalidFraming)
        #expect(failure("_x\r\n") == .invalidFraming)
    }

    @Test func limitsBoundWhatAPeerCanMakeUsHold() {
        let small = RESPParser.Limits(maxBulkLength: 8, maxAggregateCount: 4, maxDepth: 3, maxLineLength: 16)
        #expect(failure("$9\r\n", limits: small) == .bulkTooLong)
        #expect(failure("$9223372036854775807\r\n") == .bulkTooLong)
        #expect(failure("*5\r\n", limits: small) == .aggregateTooLarge)
        #expect(failure("%3\r\n", limits: small) == .aggregateTooLarge)
        #expect(failure("*9223372036854775807\r\n") == .aggregateTooLarge)
        #expect(failure("*1\r\n*1\r\n*1\r\n*1\r\n", limits: small) == .tooDeep)
        #expect(failure("+" + String(repeating: "a", count: 17), limits: small) == .lineTooLong)
        #expect(failure("+" + String(repeating: "a", count: 16) + "\r\n", limits: small) == nil)
    }

    @Test func anErrorSticks() {
        var parser = RESPParser()
        parser.receive(Array("?\r\n+OK\r\n".utf8))
        #expect(throws: RESPError.self) { try parser.next() }
        #expect(throws: RESPError.self) { try parser.next() }
    }

    @Test func encodingReadsBackAsTheSameValue() throws {
        let samples: [RESPValue] = [
            .simpleString("OK"), .error("ERR x"), .integer(Int64.min), .bulkString([0, 13, 10, 255]), .null,
            .boolean(true), .double(-2.5), .double(.infinity), .bigNumber("-123"), .verbatim(format: "mkd", text: Array("# hi".utf8)),
            .array([.integer(1), .array([])]), .set([.null]), .push([.bulkString(Array("message".utf8))]),
            .map([RESPPair(key: .bulkString([1]), value: .map([]))])
        ]
        for sample in samples {
            var parser = RESPParser()
            parser.receive(sample.encoded)
            #expect(try parser.next() == sample)
            #expect(parser.bufferedByteCount == 0)
        }
    }

    @Test func commandsAreArraysOfBulkStrings() throws {
        let command = RESPCommand([Array("PUBLISH".utf8), Array("ch".utf8), [0, 13, 10]])
        #expect(command.encoded == Array("*3\r\n$7\r\nPUBLISH\r\n$2\r\nch\r\n$3\r\n\0\r\n\r\n".utf8))
        #expect(RESPCommand("PING").encoded == Array("*1\r\n$4\r\nPING\r\n".utf8))
        var parser = RESPParser()
        parser.receive(command.encoded)
        #expect(try parser.next() == .array(command.arguments.map { .bulkString($0) }))
    }
}
