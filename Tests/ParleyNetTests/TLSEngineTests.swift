import Glibc
import ParleyWire
import Testing

@testable import ParleyNet

/// The TLS engine with two in-memory ends: a client engine and a server engine hand each
/// other their output; no socket is involved.
@Suite struct TLSEngineTests {
    private func connectedPair(
        _ certs: TestCertificates, serverName: String? = "localhost"
    ) throws
        -> (client: TLSEngine, server: TLSEngine)
    {
        let server = try TLSEngine(context: try certs.serverContext(), role: .server)
        let client = try TLSEngine(context: try TLSContext.client(trusting: certs.caFile), role: .client(serverName: serverName))
        try client.startHandshake()
        _ = try pump(client, server)
        return (client, server)
    }

    @Test func handshakeAgreesOnHTTP11AndCarriesDataBothWays() throws {
        let certs = try TestCertificates()
        defer { certs.remove() }
        let (client, server) = try connectedPair(certs)
        #expect(client.isHandshakeComplete)
        #expect(server.isHandshakeComplete)
        #expect(server.negotiatedProtocol == "http/1.1")
        #expect(client.negotiatedProtocol == "http/1.1")
        #expect(client.peerCertificateSubject == "/CN=localhost")
        #expect(client.peerCertificateSerial.flatMap { Int($0, radix: 16) } == 1001)
        #expect(["TLSv1.2", "TLSv1.3"].contains(server.protocolVersion ?? ""))

        let request = Array("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8)
        try request.withUnsafeBytes { try client.send($0) }
        // Larger than one TLS record (16 KiB) and than the read buffer the pump uses.
        let body = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        try body.withUnsafeBytes { try server.send($0) }
        let (toClient, toServer) = try pump(client, server)
        #expect(toServer == request)
        #expect(toClient == body)
    }

    @Test func closeNotifyEndsThePeersStreamCleanly() throws {
        let certs = try TestCertificates()
        defer { certs.remove() }
        let (client, server) = try connectedPair(certs)
        client.close()
        #expect(client.isClosing)
        let notify = try #require(client.takeOutput())
        try server.receive(notify.bytes)
        var buffer = [UInt8](repeating: 0, count: 1024)
        let result = try buffer.withUnsafeMutableBytes { try server.read(into: $0) }
        #expect(result == .closedByPeer)
    }

    @Test func bytesThatAreNotAClientHelloFailTheHandshake() throws {
        let certs = try TestCertificates()
        defer { certs.remove() }
        let server = try TLSEngine(context: try certs.serverContext(), role: .server)
        let garbage = Array("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8)
        try garbage.withUnsafeBytes { try server.receive($0) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        #expect(throws: NetError.self) { _ = try buffer.withUnsafeMutableBytes { try server.read(into: $0) } }
        do {
            _ = try buffer.withUnsafeMutableBytes { try server.read(into: $0) }
        } catch let error as NetError {
            #expect(error.code == .tlsProtocol)
        }
        #expect(server.hasFailed)
        #expect(!server.isHandshakeComplete)
    }

    @Test func handshakeFailureIsReportedWithItsCode() throws {
        let certs = try TestCertificates()
        defer { certs.remove() }
        let server = try TLSEngine(context: try certs.serverContext(), role: .server)
        let client = try TLSEngine(context: try TLSContext.client(trusting: certs.caFile), role: .client(serverName: "localhost"))
        try client.startHandshake()
        var hello = [UInt8](try #require(client.takeOutput()).array)
        // The record header says handshake (22); make it an unknown content type.
        hello[0] = 0x63
        try hello.withUnsafeBytes { try server.receive($0) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        do {
            _ = try buffer.withUnsafeMutableBytes { try server.read(into: $0) }
            Issue.record("a mangled ClientHello was accepted")
        } catch let error as NetError {
            #expect(error.code == .tlsHandshakeFailed)
        }
    }

    @Test func untrustedOrMisnamedServerIsRefusedByTheClient() throws {
        let certs = try TestCertificates()
        defer { certs.remove() }
        for (trust, name) in [(nil as String?, "localhost"), (certs.caFile, "example.org")] {
            let server = try TLSEngine(context: try certs.serverContext(), role: .server)
            let client = try TLSEngine(context: try TLSContext.client(trusting: trust), role: .client(serverName: name))
            try client.startHandshake()
            do {
                _ = try pump(client, server)
                Issue.record("handshake succeeded trusting \(trust ?? "nothing") for \(name)")
            } catch let error as NetError {
                #expect(error.code == .tlsHandshakeFailed)
                #expect(error.detail.contains("certificate verify failed"))
            }
            #expect(!client.isHandshakeComplete)
        }
    }

    @Test func aTamperedRecordAfterTheHandshakeIsAProtocolError() throws {
        let certs = try TestCertificates()
        defer { certs.remove() }
        let (client, server) = try connectedPair(certs)
        try Array("secret".utf8).withUnsafeBytes { try client.send($0) }
        var record = try #require(client.takeOutput()).array
        record[record.count - 1] ^= 0x01
        try record.withUnsafeBytes { try server.receive($0) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        do {
            _ = try buffer.withUnsafeMutableBytes { try server.read(into: $0) }
            Issue.record("a tampered record was accepted")
        } catch let error as NetError {
            #expect(error.code == .tlsProtocol)
        }
        #expect(server.hasFailed)
    }

    @Test func plaintextCannotBeSentBeforeTheHandshake() throws {
        let certs = try TestCertificates()
        defer { certs.remove() }
        let client = try TLSEngine(context: try TLSContext.client(trusting: certs.caFile), role: .client(serverName: "localhost"))
        #expect(throws: NetError.self) { try Array("early".utf8).withUnsafeBytes { try client.send($0) } }
    }

    @Test func missingAndMismatchedFilesAreConfigurationErrors() throws {
        let certs = try TestCertificates()
        defer { certs.remove() }
        try certs.makeServer(name: "other", serial: 7)
        let cases: [(String, String, String)] = [
            (certs.path("absent.pem"), certs.path("server.key"), "certificate file"),
            (certs.path("server.pem"), certs.path("absent.key"), "private key file"),
            (certs.path("server.pem"), certs.path("other.key"), "does not belong"),
            (certs.path("server.ext"), certs.path("server.key"), "not a PEM certificate")
        ]
        for (certificate, key, words) in cases {
            do {
                _ = try TLSContext.server(certificateFile: certificate, keyFile: key)
                Issue.record("\(certificate) with \(key) loaded")
            } catch {
                #expect(error.code == .tlsConfiguration)
                #expect(error.detail.contains(words), "\(error.detail)")
            }
        }
    }

    @Test func reloadServesTheNewCertificateWhileOldSessionsGoOn() throws {
        let certs = try TestCertificates()
        defer { certs.remove() }
        let identity = try TLSServerIdentity(certificateFile: certs.path("server.pem"), keyFile: certs.path("server.key"))
        let oldServer = try TLSEngine(context: identity.context, role: .server)
        let oldClient = try TLSEngine(context: try TLSContext.client(trusting: certs.caFile), role: .client(serverName: "localhost"))
        try oldClient.startHandshake()
        _ = try pump(oldClient, oldServer)

        try certs.makeServer(name: "server", serial: 2002)
        let fresh = try identity.reload()
        #expect(fresh.certificateSerial.flatMap { Int($0, radix: 16) } == 2002)

        let newServer = try TLSEngine(context: identity.context, role: .server)
        let newClient = try TLSEngine(context: try TLSContext.client(trusting: certs.caFile), role: .client(serverName: "localhost"))
        try newClient.startHandshake()
        _ = try pump(newClient, newServer)
        #expect(newClient.peerCertificateSerial.flatMap { Int($0, radix: 16) } == 2002)

        try Array("still here".utf8).withUnsafeBytes { try oldClient.send($0) }
        let (_, received) = try pump(oldClient, oldServer)
        #expect(received == Array("still here".utf8))
        #expect(oldClient.peerCertificateSerial.flatMap { Int($0, radix: 16) } == 1001)
    }

    @Test func aFailedReloadKeepsTheCertificateInService() throws {
        let certs = try TestCertificates()
        defer { certs.remove() }
        try certs.makeServer(name: "other", serial: 7)
        let identity = try TLSServerIdentity(certificateFile: certs.path("server.pem"), keyFile: certs.path("server.key"))
        _ = system("cp '\(certs.path("other.key"))' '\(certs.path("server.key"))'")
        #expect(throws: NetError.self) { try identity.reload() }
        #expect(identity.context.certificateSerial.flatMap { Int($0, radix: 16) } == 1001)
    }
}
