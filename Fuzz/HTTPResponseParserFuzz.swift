// Fuzz target: the HTTP/1.1 response parser (the client's and the WebSocket handshake's).
//
// Input layout: the first byte selects the configuration (bit 0: tiny limits so every limit
// is reachable; bit 1: the answer to a HEAD; the rest picks a split point), the remaining
// bytes are the wire input.
// Checked properties:
// - nothing crashes or traps, whatever the input;
// - the outcome (the response, or the error's code) is the same whether the input arrives
//   in one piece, in three pieces or byte by byte, and whether EOF follows;
// - a body never exceeds the body limit, a HEAD answer has none, a status has three digits;
// - once complete, the response stays the same whatever bytes follow.
@testable import ParleyWire

/// The libFuzzer entry point; see the layout and properties above.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPResponseParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let config = data[0]
    let input = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let limits = config & 1 == 1 ? (body: 32, head: 64) : (body: 1 << 20, head: 64 * 1024)
    let isHead = config & 2 == 2
    let make = { HTTPResponseParser(bodyLimit: limits.body, headLimit: limits.head, isHeadRequest: isHead) }

    let whole = FuzzResponse.outcome(make(), pieces: [input[...]])
    if case .response(let response, _) = whole {
        precondition(response.body.count <= limits.body, "body limit not enforced")
        precondition((100...999).contains(response.status), "status \(response.status) accepted")
        precondition(!isHead || response.body.isEmpty, "a HEAD answer carried a body")
    }
    let first = input.isEmpty ? 0 : Int(config >> 2) % (input.count + 1)
    let second = first + (input.count - first) / 2
    let split = FuzzResponse.outcome(make(), pieces: [input[..<first], input[first..<second], input[second...]])
    precondition(split == whole, "split input changed the outcome")
    if input.count <= 4096 {
        let single = FuzzResponse.outcome(make(), pieces: input.indices.map { input[$0...$0] })
        precondition(single == whole, "byte-by-byte input changed the outcome")
    }
    return 0
}

enum FuzzResponse {
    enum Outcome: Equatable {
        case response(HTTPClientResponse, reusable: Bool)
        case failure(HTTPResponseParseError.Code)
    }

    static func outcome(_ start: HTTPResponseParser, pieces: [ArraySlice<UInt8>]) -> Outcome {
        var parser = start
        do {
            for (index, piece) in pieces.enumerated() {
                guard let response = try parser.receive(piece) else { continue }
                // Bytes after the response stay with it: they decide whether the connection is clean.
                for rest in pieces[(index + 1)...] {
                    let again = try parser.receive(rest)
                    precondition(again == response, "a complete response changed")
                }
                return .response(response, reusable: parser.leavesConnectionReusable)
            }
            return .response(try parser.finish(), reusable: false)
        } catch {
            return .failure(error.code)
        }
    }
}
