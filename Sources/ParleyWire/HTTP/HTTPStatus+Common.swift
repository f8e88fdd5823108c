extension HTTPStatus {
    /// 100 Continue.
    public static let `continue` = HTTPStatus(100)
    /// 201 Created.
    public static let created = HTTPStatus(201)
    /// 204 No Content.
    public static let noContent = HTTPStatus(204)
    /// 304 Not Modified.
    public static let notModified = HTTPStatus(304)
    /// 405 Method Not Allowed.
    public static let methodNotAllowed = HTTPStatus(405)
    /// 413 Content Too Large.
    public static let contentTooLarge = HTTPStatus(413)
    /// 414 URI Too Long.
    public static let uriTooLong = HTTPStatus(414)
    /// 417 Expectation Failed.
    public static let expectationFailed = HTTPStatus(417)
    /// 431 Request Header Fields Too Large.
    public static let requestHeaderFieldsTooLarge = HTTPStatus(431)
    /// 501 Not Implemented.
    public static let notImplemented = HTTPStatus(501)
    /// 505 HTTP Version Not Supported.
    public static let httpVersionNotSupported = HTTPStatus(505)

    /// Whether a response with this status never carries a body (1xx, 204, 304).
    public var forbidsBody: Bool { (100..<200).contains(code) || code == 204 || code == 304 }
}
