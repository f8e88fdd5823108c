import ParleyWireCore

/// The chat REST API as typed calls: builds requests, adds the bearer token (refreshing it
/// once when the server refuses it), and turns error answers into ``ParleyError``.
struct ChatAPI: Sendable {
    let baseURL: String
    let appID: String?
    let http: any HTTPTransport
    let tokens: any TokenProvider
    /// Set when the client is closed: no request goes out after that.
    let closed: ClosedFlag

    /// Sends a request and returns the body of a 2xx answer.
    func call(
        _ method: String, _ path: String, query: [(String, String)] = [], json: JSONValue? = nil,
        body: [UInt8]? = nil, contentType: String? = nil,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async throws(ParleyError) -> [UInt8] {
        var url = baseURL + path
        if !query.isEmpty { url += "?" + query.map { Self.encode($0.0) + "=" + Self.encode($0.1) }.joined(separator: "&") }
        var headers = HTTPHeaders()
        headers.add("Accept", "application/json")
        if let appID { headers.add("X-Parley-App", appID) }
        var payload: [UInt8] = []
        if let json {
            headers.add("Content-Type", "application/json")
            payload = JSONWriter.serialize(json)
        } else if let body {
            headers.add("Content-Type", contentType ?? "application/octet-stream")
            payload = body
        }
        var refreshed = false
        while true {
            try closed.check()
            var request = HTTPRequestMessage(method: method, url: url, headers: headers, body: payload)
            request.headers.add("Authorization", "Bearer " + (try await tokens.token(forceRefresh: refreshed)))
            let response = try await http.send(request, progress: progress)
            if response.isSuccess { return response.body }
            let error = Self.error(from: response)
            if error.isAuthenticationFailure, !refreshed, error.serverCode != "invalid_credentials" {
                refreshed = true
                continue
            }
            throw error
        }
    }

    /// Decodes a JSON answer.
    func json(
        _ method: String, _ path: String, query: [(String, String)] = [], json: JSONValue? = nil
    ) async throws(ParleyError) -> JSONValue {
        let bytes = try await call(method, path, query: query, json: json)
        do { return try JSONParser.parse(bytes) } catch { throw ParleyError(.decoding, "\(method) \(path): not JSON") }
    }

    static func error(from response: HTTPResponseMessage) -> ParleyError {
        let object: JSONValue?
        do { object = try JSONParser.parse(response.body)["error"] } catch {
            object = nil  // not the JSON error shape (a proxy's HTML page): the status says it
        }
        let code = object?["code"]?.stringValue
        let message = object?["message"]?.stringValue ?? "HTTP \(response.status)"
        return ParleyError(
            .server, message, status: response.status, serverCode: code,
            retryAfter: response.headers.first("Retry-After").flatMap { Int($0) })
    }

    /// Percent-encodes everything but unreserved characters (RFC 3986).
    static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                out += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 15)]], as: UTF8.self)
            }
        }
        return out
    }

    /// `/v1/rooms/{id}` and the like, with each segment encoded.
    static func path(_ segments: String...) -> String {
        "/v1/" + segments.map(encode).joined(separator: "/")
    }
}
