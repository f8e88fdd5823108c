// Fuzz target: the HTTP/1.1 request parser, request targets, the router and the writer.
//
// Input layout: the first byte selects the configuration (bit 0: tiny limits so every limit
// is reachable; the rest picks split points), the remaining bytes are the wire input.
// Checked properties:
// - nothing crashes or traps, whatever the input;
// - the events are the same whether the input arrives in one piece, in three pieces or
//   byte by byte (body pieces merged);
// - nothing follows an `.error`; a request's body never exceeds `maxBodySize`;
// - every head's target either decodes or fails with a 400, and routing it is total;
// - a response written from what was parsed is framed so that the writer's chunks read back.
@testable import ParleyWire

/// The libFuzzer entry point; see the layout and properties above.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let config = data[0]
    let input = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let limits =
        config & 1 == 1
        ? HTTPRequestParser.Limits(
            maxRequestLineLength: 64, maxHeaderBytes: 128, maxHeaderCount: 4,
            maxBodySize: 64, maxChunkLineLength: 16)
        : HTTPRequestParser.Limits()

    let whole = FuzzHTTP.run(limits: limits, pieces: [input[...]])
    FuzzHTTP.checkInvariants(whole, limits: limits)

    let first = input.isEmpty ? 0 : Int(config >> 1) % (input.count + 1)
    let second = first + (input.count - first) / 2
    let split = FuzzHTTP.run(limits: limits, pieces: [input[..<first], input[first..<second], input[second...]])
    precondition(FuzzHTTP.merged(split) == FuzzHTTP.merged(whole), "split input changed the events")

    if input.count <= 2048 {
        let single = FuzzHTTP.run(limits: limits, pieces: input.indices.map { input[$0...$0] })
        precondition(FuzzHTTP.merged(single) == FuzzHTTP.merged(whole), "byte-by-byte input changed the events")
    }

    for case .head(let head) in whole { FuzzHTTP.exercise(head) }
    return 0
}

enum FuzzHTTP {
    static func run(limits: HTTPRequestParser.Limits, pieces: [ArraySlice<UInt8>]) -> [HTTPRequestParser.Event] {
        var parser = HTTPRequestParser(limits: limits)
        var events: [HTTPRequestParser.Event] = []
        for piece in pieces {
            parser.receive(Array(piece))
            while let event = parser.nextEvent() {
                if case .error = events.last { preconditionFailure("an event followed an error") }
                events.append(event)
            }
        }
        return events
    }

    static func merged(_ events: [HTTPRequestParser.Event]) -> [HTTPRequestParser.Event] {
        var out: [HTTPRequestParser.Event] = []
        for event in events {
            if case .body(let piece) = event, case .body(let previous)? = out.last {
                out[out.count - 1] = .body(ArraySlice(Array(previous) + Array(piece)))
            } else {
                out.append(event)
            }
        }
        return out
    }

    static func checkInvariants(_ events: [HTTPRequestParser.Event], limits: HTTPRequestParser.Limits) {
        var bodyBytes = 0
        var inRequest = false
        for event in events {
            switch event {
            case .head(let head):
                precondition(!inRequest, "head inside a request")
                precondition(head.headers.count <= limits.maxHeaderCount, "header count limit not enforced")
                precondition(!head.target.isEmpty, "empty target accepted")
                inRequest = true
                bodyBytes = 0
            case .body(let piece):
                precondition(inRequest && !piece.isEmpty, "stray or empty body piece")
                bodyBytes += piece.count
                precondition(bodyBytes <= limits.maxBodySize, "body limit not enforced")
            case .end:
                precondition(inRequest, "end without head")
                inRequest = false
            case .error(let error):
                precondition(
                    [400, 413, 414, 431, 501, 505].contains(error.status.code), "unexpected status \(error.status.code)"
                )
            }
        }
    }

    static func exercise(_ head: HTTPRequestHead) {
        _ = head.keepAlive
        _ = head.expectation
        _ = head.isUpgrade
        _ = head.contentLength
        var router = HTTPRouter<Int>()
        router.add(.GET, "/apps/{appId}/channels/{name}", 1)
        router.add(.POST, "/apps/{appId}/events", 2)
        router.add(.GET, "/static/{path...}", 3)
        do {
            let target = try head.parsedTarget()
            _ = router.match(method: head.method, target: target)
            _ = router.match(method: head.method, path: target.path)
        } catch {
            precondition(error.status.code == 400, "target error is not a 400")
        }

        var response = HTTPResponseHead(status: .ok, headers: head.headers)
        response.headers.add("X-Method", head.method.rawValue)
        let body = Array(head.target.utf8)
        _ = HTTPResponseWriter.response(response, body: body, keepAlive: head.keepAlive, requestVersion: head.version)

        // Writer chunks carrying the target and header values must decode back through the parser.
        var stream = Array("POST / HTTP/1.1\r\nHost: f\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        stream += HTTPResponseWriter.chunk(body)
        stream += HTTPResponseWriter.finalChunk()
        let events = run(limits: HTTPRequestParser.Limits(), pieces: [stream[...]])
        var decoded: [UInt8] = []
        for case .body(let piece) in events { decoded += piece }
        precondition(decoded == body, "writer chunk did not round-trip")
    }
}
