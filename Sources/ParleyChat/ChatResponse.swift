import ParleyWire

/// The chat service's answer: status, headers and a complete body (JSON unless stated otherwise).
public struct ChatResponse: Sendable {
    /// The status.
    public var status: HTTPStatus
    /// The header fields, `Content-Type` included when there is a body.
    public var headers: HTTPHeaders
    /// The body.
    public var body: [UInt8]
    /// The app whose credentials the request carried, once they were verified; nil for open
    /// routes and refused credentials (a transport picks the app's CORS origins by it).
    public var appID: String?
    /// The user the request acted as, once verified (nil for an app's backend): for logs.
    public var userID: String?

    /// Creates a response.
    public init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response.
    public static func json(_ value: JSONValue, status: HTTPStatus = .ok) -> ChatResponse {
        ChatResponse(status: status, headers: ["Content-Type": "application/json"], body: JSONWriter.serialize(value))
    }

    /// A JSON object response.
    static func json(_ object: JSONObject, status: HTTPStatus = .ok) -> ChatResponse {
        json(.object(object), status: status)
    }

    /// An empty 204 response.
    static var noContent: ChatResponse { ChatResponse(status: .noContent) }

    /// The error body `{"error":{"code","message"}}` with the error's status.
    public static func error(_ error: ChatError) -> ChatResponse {
        var response = json(
            .object(["error": .object(["code": .string(error.code.rawValue), "message": .string(error.message)])]),
            status: error.code.status)
        for (name, value) in error.headers { response.headers.add(name, value) }
        return response
    }
}
