@testable import ParleyWire

/// Parsing helpers shared by the HTTP tests.
enum HTTPTestSupport {
    /// Feeds the text in one piece and collects every event.
    static func events(_ text: String, limits: HTTPRequestParser.Limits = .init()) -> [HTTPRequestParser.Event] {
        events(Array(text.utf8), limits: limits)
    }

    /// Feeds the bytes in one piece and collects every event.
    static func events(_ bytes: [UInt8], limits: HTTPRequestParser.Limits = .init()) -> [HTTPRequestParser.Event] {
        var parser = HTTPRequestParser(limits: limits)
        parser.receive(bytes)
        return drain(&parser)
    }

    /// Feeds the bytes one at a time, draining events after each, and merges body pieces.
    static func eventsByteByByte(
        _ bytes: [UInt8], limits: HTTPRequestParser.Limits = .init()
    ) -> [HTTPRequestParser
        .Event]
    {
        var parser = HTTPRequestParser(limits: limits)
        var all: [HTTPRequestParser.Event] = []
        for b in bytes {
            parser.receive([b])
            all += drain(&parser)
        }
        return mergingBodies(all)
    }

    static func drain(_ parser: inout HTTPRequestParser) -> [HTTPRequestParser.Event] {
        var out: [HTTPRequestParser.Event] = []
        while let event = parser.nextEvent() { out.append(event) }
        return out
    }

    /// Joins consecutive `.body` pieces so differently split inputs compare equal.
    static func mergingBodies(_ events: [HTTPRequestParser.Event]) -> [HTTPRequestParser.Event] {
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

    /// The error of the event list, if it ends in one.
    static func error(_ events: [HTTPRequestParser.Event]) -> HTTPParseError? {
        if case .error(let error)? = events.last { return error }
        return nil
    }

    /// The error produced by this input, if any.
    static func error(_ text: String, limits: HTTPRequestParser.Limits = .init()) -> HTTPParseError? {
        error(events(text, limits: limits))
    }

    /// Every head in the event list.
    static func heads(_ events: [HTTPRequestParser.Event]) -> [HTTPRequestHead] {
        events.compactMap { if case .head(let head) = $0 { head } else { nil } }
    }

    /// The concatenated body bytes in the event list, as text.
    static func bodyText(_ events: [HTTPRequestParser.Event]) -> String {
        var bytes: [UInt8] = []
        for case .body(let piece) in events { bytes += piece }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
