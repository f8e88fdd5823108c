// Fuzz target: the RESP parser (replies from a Redis server), its encoder and Redis URLs.
//
// Input layout: the first byte picks the limits (bit 0: tiny, so every limit is reachable)
// and a split point; the rest is the wire input (also tried as a Redis URL).
// Checked properties:
// - nothing crashes or traps, whatever the input;
// - the values (and the error, if any) are the same whether the input arrives whole, in three
//   pieces or byte by byte;
// - what the parser holds stays a bounded multiple of the input: no value has more
//   elements than the input had bytes, and a declared length never pre-allocates;
// - encoding a parsed value and parsing it back gives bytes that encode the same again.
@testable import ParleyWire

/// The libFuzzer entry point; see the layout and properties above.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRESPParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let config = data[0]
    let input = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let limits =
        config & 1 == 1
        ? RESPParser.Limits(maxBulkLength: 16, maxAggregateCount: 8, maxDepth: 4, maxLineLength: 24)
        : RESPParser.Limits()

    let whole = FuzzRESP.run(limits: limits, pieces: [input[...]])
    let first = input.isEmpty ? 0 : Int(config >> 1) % (input.count + 1)
    let second = first + (input.count - first) / 2
    let split = FuzzRESP.run(limits: limits, pieces: [input[..<first], input[first..<second], input[second...]])
    precondition(split == whole, "split input changed the values")
    if input.count <= 1024 {
        let single = FuzzRESP.run(limits: limits, pieces: input.indices.map { input[$0...$0] })
        precondition(single == whole, "byte-by-byte input changed the values")
    }
    for value in whole.values {
        precondition(FuzzRESP.elementCount(value) <= input.count, "more elements than input bytes")
        FuzzRESP.checkRoundTrip(value)
    }
    _ = try? RedisURL(parsing: String(decoding: input, as: UTF8.self))
    return 0
}

enum FuzzRESP {
    struct Outcome: Equatable {
        var values: [RESPValue] = []
        var error: RESPError.Code?

        static func == (a: Outcome, b: Outcome) -> Bool {
            a.error == b.error && a.values.map(\.encoded) == b.values.map(\.encoded)
        }
    }

    static func run(limits: RESPParser.Limits, pieces: [ArraySlice<UInt8>]) -> Outcome {
        var parser = RESPParser(limits: limits)
        var outcome = Outcome()
        for piece in pieces {
            parser.receive(Array(piece))
            do {
                while let value = try parser.next() { outcome.values.append(value) }
            } catch {
                outcome.error = error.code
                return outcome
            }
        }
        return outcome
    }

    static func elementCount(_ value: RESPValue) -> Int {
        switch value {
        case .array(let values), .set(let values), .push(let values): values.count + values.reduce(0) { $0 + elementCount($1) }
        case .map(let pairs): pairs.count * 2 + pairs.reduce(0) { $0 + elementCount($1.key) + elementCount($1.value) }
        default: 0
        }
    }

    static func checkRoundTrip(_ value: RESPValue) {
        let bytes = value.encoded
        var parser = RESPParser()
        parser.receive(bytes)
        guard let again = try? parser.next() else { preconditionFailure("an encoded value did not parse back") }
        precondition(again.encoded == bytes, "encoding is not stable across a parse")
        precondition(parser.bufferedByteCount == 0, "an encoded value left bytes behind")
    }
}
