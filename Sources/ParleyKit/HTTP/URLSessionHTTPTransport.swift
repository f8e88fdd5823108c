import Foundation
import ParleyWireCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTP over Foundation's `URLSession`: `http://` and `https://` (TLS, proxies and App
/// Transport Security from the system). The transport for Apple platforms; on Linux it runs on
/// FoundationNetworking and is tested against a real server there too.
///
/// `progress` hears the whole body once, when the request has gone out (URLSession reports
/// upload progress only to a delegate).
public struct URLSessionHTTPTransport: HTTPTransport {
    private let session: URLSession
    /// Give up when the request has made no progress for this long.
    public var timeout: Duration

    /// Creates a transport over `session` (by default an ephemeral session of its own: no
    /// cookies or cache shared with the app).
    public init(session: URLSession? = nil, timeout: Duration = .seconds(30)) {
        self.session = session ?? URLSession(configuration: .ephemeral)
        self.timeout = timeout
    }

    /// Sends the request and returns the whole response (see ``HTTPTransport``).
    public func send(
        _ request: HTTPRequestMessage, progress: (@Sendable (Int, Int) -> Void)?
    ) async throws(ParleyError) -> HTTPResponseMessage {
        let urlRequest = try Self.urlRequest(request, timeout: timeout)
        let data: Data, response: URLResponse
        do {
            (data, response) = try await session.data(for: urlRequest)
        } catch {
            throw Self.error(error, url: request.url)
        }
        guard let http = response as? HTTPURLResponse else {
            throw ParleyError(.network, "\(request.url): not an HTTP response")
        }
        progress?(request.body.count, request.body.count)
        var headers = HTTPHeaders()
        for (name, value) in http.allHeaderFields {
            headers.add(String(describing: name), String(describing: value))
        }
        return HTTPResponseMessage(status: http.statusCode, headers: headers, body: [UInt8](data))
    }

    /// The `URLRequest` of a message; only `http` and `https` URLs.
    static func urlRequest(_ request: HTTPRequestMessage, timeout: Duration) throws(ParleyError) -> URLRequest {
        guard let url = URL(string: request.url), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            url.host != nil
        else {
            throw ParleyError(.invalidArgument, "not an http:// or https:// URL: \(request.url)")
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method
        urlRequest.timeoutInterval = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        for field in request.headers { urlRequest.addValue(field.value, forHTTPHeaderField: field.name) }
        if !request.body.isEmpty { urlRequest.httpBody = Data(request.body) }
        return urlRequest
    }

    /// A URLSession failure as a ``ParleyError``: time-outs and cancellation keep their class.
    static func error(_ error: any Error, url: String) -> ParleyError {
        guard let urlError = error as? URLError else { return ParleyError(.network, "\(url): \(error)") }
        switch urlError.code {
        case .timedOut: return ParleyError(.timedOut, "\(url): timed out")
        case .cancelled: return ParleyError(.cancelled, "\(url): cancelled")
        default: return ParleyError(.network, "\(url): \(urlError.localizedDescription) (\(urlError.code.rawValue))")
        }
    }
}
