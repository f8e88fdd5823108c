import ParleyWire

/// An HTTP API answer: a status and a JSON body (never empty — the Python library
/// raises on an empty body).
/// It is also an `Error`, so validation can end early with the answer to send.
public struct PusherAPIResponse: Error, Sendable, Equatable {
    /// The HTTP status code.
    public var status: Int
    /// The JSON body.
    public var body: [UInt8]

    /// Creates a response with a JSON value as body.
    public init(status: Int, json: JSONValue) {
        self.status = status
        self.body = JSONWriter.serialize(json)
    }

    /// `200 {}`.
    public static let empty = PusherAPIResponse(status: 200, json: .object([:]))

    /// An error answer: `{"error": message, "code": status}`.
    public static func error(_ status: Int, _ message: String) -> PusherAPIResponse {
        PusherAPIResponse(status: status, json: .object(["error": .string(message), "code": .int(status)]))
    }

    /// The body parsed back (for tests and logs).
    public var json: JSONValue? { try? JSONParser.parse(body) }
}
