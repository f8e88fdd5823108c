import ParleyWire

/// A complete response with a Content-Length body.
public struct HTTPResponse: Sendable {
    /// The status.
    public var status: HTTPStatus
    /// Header fields; framing fields are written by the server.
    public var headers: HTTPHeaders
    /// The body bytes.
    public var body: [UInt8]
    /// The app this request was served for, for the access log only (never sent).
    public var loggedApp: String? = nil
    /// The user this request was served for, for the access log only (never sent).
    public var loggedUser: String? = nil

    /// Creates a response.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A `text/plain; charset=utf-8` response.
    public static func text(_ text: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(text.utf8))
    }

    /// An `application/json` response from already-serialised JSON.
    public static func json(_ text: String, status: HTTPStatus = .ok) -> HTTPResponse {
        json(Array(text.utf8), status: status)
    }

    /// An `application/json` response from already-serialised JSON bytes.
    public static func json(_ json: [UInt8], status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: json)
    }

    /// The house error shape: `{"error":{"code":"...","message":"..."}}`.
    public static func error(_ status: HTTPStatus, code: String, message: String) -> HTTPResponse {
        json("{\"error\":{\"code\":\(JSONWriter.quoted(code)),\"message\":\(JSONWriter.quoted(message))}}", status: status)
    }
}
