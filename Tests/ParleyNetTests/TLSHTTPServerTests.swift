import Glibc
import ParleyWire
import Testing

@testable import ParleyNet

/// A blocking TLS client for the loopback tests: a ``TLSEngine`` pumped over a ``RawClient``.
final class TLSTestClient {
    let raw: RawClient
    let engine: TLSEngine
    private(set) var plaintext: [UInt8] = []
    private(set) var sawCloseNotify = false
    private(set) var sawEOF = false

    init(port: Int, caFile: String) throws {
        raw = try RawClient(port: port)
        engine = try TLSEngine(context: try TLSContext.client(trusting: caFile), role: .client(serverName: "localhost"))
        try engine.startHandshake()
        flush()
        while !engine.isHandshakeComplete {
            guard try readOnce() else { throw NetError(.closed, "server closed during the handshake") }
        }
    }

    func flush() {
        if let out = engine.takeOutput() { raw.send(out.array) }
    }

    func send(_ text: String) throws {
        try Array(text.utf8).withUnsafeBytes { try engine.send($0) }
        flush()
    }

    /// One `recv` fed to the engine; false once the stream ended.
    @discardableResult
    func readOnce() throws -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let n = buffer.withUnsafeMutableBytes { recv(raw.fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else {
            sawEOF = true
            return false
        }
        try buffer.withUnsafeBytes { try engine.receive(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        reading: while true {
            switch try buffer.withUnsafeMutableBytes({ try engine.read(into: $0) }) {
            case .plaintext(let count): plaintext += buffer[0..<count]
            case .needsInput: break reading
            case .closedByPeer:
                sawCloseNotify = true
                break reading
            }
        }
        flush()
        return true
    }

    /// Reads until `marker` appears in the plaintext or the stream ends.
    func read(until marker: String) throws -> String {
        while !String(decoding: plaintext, as: UTF8.self).contains(marker) {
            guard try readOnce() else { break }
        }
        return String(decoding: plaintext, as: UTF8.self)
    }

    func readToEnd() throws -> String {
        while try readOnce() {}
        return String(decoding: plaintext, as: UTF8.self)
    }
}

@Suite("HTTP over TLS", .serialized)
struct TLSHTTPServerTests {
    private func start(
        _ certs: TestCertificates, handshakeTimeout: Duration = .seconds(10),
        configure: (inout HTTPRoutes) -> Void = { _ in }
    ) throws -> (EventLoopGroup, Int) {
        var configuration = HTTPServerConfiguration()
        configuration.tls = try TLSServerIdentity(certificateFile: certs.path("server.pem"), keyFile: certs.path("server.key"))
        configuration.tlsHandshakeTimeout = handshakeTimeout
        let (group, _, port) = try startTestServer(configure: configure, configuration: configuration)
        return (group, port)
    }

    @Test("a request over TLS is answered, keep-alive works, and Connection: close ends with close_notify")
    func requestsOverTLS() throws {
        let certs = try TestCertificates()
        defer { certs.remove() }
        let (group, port) = try start(certs)
        defer { group.shutdownAndWait() }
        let client = try TLSTestClient(port: port, caFile: certs.caFile)
        #expect(client.engine.negotiatedProtocol == "http/1.1")
        try client.send("GET /users/7 HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(try client.read(until: "user=7").hasPrefix("HTTP/1.1 200 OK"))
        try client.send("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello")
        let all = try client.readToEnd()
        #expect(all.hasSuffix("hello"))
        #expect(client.sawCloseNotify)
    }

    @Test("a response far larger than the socket buffer arrives whole over TLS")
    func largeResponse() throws {
        let certs = try TestCertificates()
        defer { certs.remove() }
        let body = (0..<3_000_000).map { UInt8(ascii: "a") &+ UInt8($0 % 26) }
        let (group, port) = try start(certs) { routes in
            routes.get("/big") { _, responder in responder.respond(HTTPResponse(body: body)) }
        }
        defer { group.shutdownAndWait() }
        let client = try TLSTestClient(port: port, caFile: certs.caFile)
        try client.send("GET /big HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        _ = try client.readToEnd()
        let text = client.plaintext
        let headEnd = try #require(String(decoding: text.prefix(1024), as: UTF8.self).range(of: "\r\n\r\n"))
        let headLength = String(decoding: text.prefix(1024), as: UTF8.self)[..<headEnd.upperBound].utf8.count
        #expect(Array(text[headLength...]) == body)
    }

    @Test("bytes that are not TLS close that connection; the server goes on answering")
    func garbageInsteadOfClientHello() throws {
        let certs = try TestCertificates()
        defer { certs.remove() }
        let (group, port) = try start(certs)
        defer { group.shutdownAndWait() }
        let plain = try RawClient(port: port)
        plain.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let answer = plain.readToEnd()
        // Whatever came back is a TLS alert record (content type 21), never an HTTP answer.
        #expect(answer.first == nil || answer.first == 21)
        let client = try TLSTestClient(port: port, caFile: certs.caFile)
        try client.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(try client.read(until: "ok").hasPrefix("HTTP/1.1 200 OK"))
    }

    @Test("a peer that never finishes the handshake is dropped at the handshake deadline")
    func handshakeDeadline() throws {
        let certs = try TestCertificates()
        defer { certs.remove() }
        let (group, port) = try start(certs, handshakeTimeout: .milliseconds(300))
        defer { group.shutdownAndWait() }
        let silent = try RawClient(port: port)
        // The idle timeout is a minute and the client's hang guard twenty seconds: only the
        // handshake deadline can close this connection in time for the read to see it.
        #expect(silent.peerClosed())
        let client = try TLSTestClient(port: port, caFile: certs.caFile)
        try client.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(try client.read(until: "ok").hasPrefix("HTTP/1.1 200 OK"))
    }
}
