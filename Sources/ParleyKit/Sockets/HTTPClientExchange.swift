#if canImport(ParleyNet)
import ParleyNet

/// One request/response on a connection; loop-confined. When the response leaves the
/// connection clean (fully framed, no `Connection: close`, nothing extra), `release` gets it
/// back for reuse; otherwise it is closed.
final class HTTPClientExchange: ConnectionHandler {
    /// How an exchange ended: the result, and whether any response byte had arrived (a
    /// reused connection that failed before that was most likely closed by the server while idle).
    struct Outcome: Sendable {
        var result: Result<HTTPResponseMessage, ParleyError>
        var sawResponseBytes: Bool
    }

    private var parser: HTTPResponseParser
    private let bodyCount: Int
    private let progress: (@Sendable (Int, Int) -> Void)?
    private let release: ((Connection) -> Void)?
    private var sawResponseBytes = false
    private var finish: ((Outcome) -> Void)?

    init(parser: HTTPResponseParser, bodyCount: Int, progress: (@Sendable (Int, Int) -> Void)?,
         release: ((Connection) -> Void)?, finish: @escaping (Outcome) -> Void) {
        self.parser = parser
        self.bodyCount = bodyCount
        self.progress = progress
        self.release = release
        self.finish = finish
    }

    func start(_ connection: Connection, _ bytes: [UInt8]) {
        progress?(0, bodyCount)
        guard connection.write(bytes) else {
            complete(connection, .failure(ParleyError(.network, "could not write the request")))
            return
        }
        if !connection.isWriteBlocked { progress?(bodyCount, bodyCount) }
    }

    func connectionDidDrain(_ connection: Connection) { progress?(bodyCount, bodyCount) }

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        sawResponseBytes = true
        do throws(ParleyError) {
            if let response = try parser.receive(bytes) { complete(connection, .success(response), reusable: parser.leavesConnectionReusable) }
        } catch {
            complete(connection, .failure(error))
        }
    }

    func connectionDidReachEOF(_ connection: Connection) {
        do throws(ParleyError) {
            complete(connection, .success(try parser.finish()))
        } catch {
            complete(connection, .failure(error))
        }
    }

    func connectionDidTimeOut(_ connection: Connection) {
        complete(connection, .failure(ParleyError(.timedOut, "no answer from the server")))
    }

    func connection(_ connection: Connection, didCloseWith error: NetError?) {
        let reason = error.map { "\($0)" } ?? "closed"
        complete(connection, .failure(ParleyError(.network, "connection closed before the response: \(reason)")))
    }

    private func complete(_ connection: Connection, _ result: Result<HTTPResponseMessage, ParleyError>, reusable: Bool = false) {
        guard let finish else { return }
        self.finish = nil
        // Parked before the caller resumes, so its next request can already reuse it. Not when
        // the server answered before taking the whole request: the rest would precede the next one.
        if reusable, let release, connection.isOpen, connection.outboundBytes == 0 {
            release(connection)
        } else if !connection.isClosed {
            connection.abort(nil)
        }
        finish(Outcome(result: result, sawResponseBytes: sawResponseBytes))
    }
}
#endif
