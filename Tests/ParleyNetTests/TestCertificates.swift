import Glibc
import ParleyWire

@testable import ParleyNet

/// A throwaway CA and server certificates made with the `openssl` command in a fresh
/// temporary directory (the tests never ship key material).
struct TestCertificates {
    let directory: String
    var caFile: String { directory + "/ca.pem" }

    /// Makes the CA and one server certificate (`server.pem`/`server.key`, CN=localhost,
    /// SAN localhost and 127.0.0.1, serial 1001).
    init() throws {
        var template = Array("/tmp/parley-tls-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw NetError(.io, errno: errno, "mkdtemp") }
        directory = String(cString: made)
        try run(
            """
            openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 \
              -subj '/CN=Parley Test CA' -keyout ca.key -out ca.pem
            """)
        try makeServer(name: "server", serial: 1001)
    }

    /// Makes `NAME.pem`/`NAME.key` signed by the CA, with the given serial number.
    func makeServer(name: String, serial: Int, commonName: String = "localhost") throws {
        try run(
            """
            printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\\nbasicConstraints=CA:FALSE\\nextendedKeyUsage=serverAuth\\n' > \(name).ext && \
            openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj '/CN=\(commonName)' \
              -keyout \(name).key -out \(name).csr && \
            openssl x509 -req -in \(name).csr -CA ca.pem -CAkey ca.key -set_serial \(serial) -days 2 \
              -extfile \(name).ext -out \(name).pem
            """)
    }

    func path(_ file: String) -> String { directory + "/" + file }

    /// A server context for `name`'s certificate and key.
    func serverContext(_ name: String = "server") throws -> TLSContext {
        try TLSContext.server(certificateFile: path(name + ".pem"), keyFile: path(name + ".key"))
    }

    /// Removes the directory.
    func remove() { _ = system("rm -rf '\(directory)'") }

    private func run(_ script: String) throws {
        let status = system("cd '\(directory)' && ( \(script) ) >/dev/null 2>&1")
        guard status == 0 else { throw NetError(.io, "openssl failed (status \(status)): \(script)") }
    }
}

/// Moves ciphertext between two engines until neither has anything to say: the two ends of
/// a TLS connection with no socket in between. Returns the plaintext each end read.
func pump(_ client: TLSEngine, _ server: TLSEngine) throws -> (client: [UInt8], server: [UInt8]) {
    var toClient: [UInt8] = [], toServer: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    func drain(_ engine: TLSEngine, into sink: inout [UInt8]) throws {
        while true {
            let result = try buffer.withUnsafeMutableBytes { try engine.read(into: $0) }
            guard case .plaintext(let count) = result else { return }
            sink += buffer[0..<count]
        }
    }
    for _ in 0..<64 {
        let clientOut = client.takeOutput()
        let serverOut = server.takeOutput()
        if clientOut == nil && serverOut == nil { break }
        if let clientOut { try server.receive(clientOut.bytes) }
        if let serverOut { try client.receive(serverOut.bytes) }
        try drain(server, into: &toServer)
        try drain(client, into: &toClient)
    }
    return (toClient, toServer)
}

extension SharedBytes {
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: baseAddress, count: count) }
}
