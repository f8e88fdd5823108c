#if canImport(ParleyNet)
import ParleyNet

/// The process-wide event loop the SDK's sockets run on (one thread, started on first use).
enum NetRuntime {
    private static let group: Result<EventLoopGroup, NetError> = {
        do throws(NetError) {
            return .success(try EventLoopGroup(threads: 1, logger: .standardError()))
        } catch {
            return .failure(error)
        }
    }()

    /// The loop, or why it could not start.
    static func loop() throws(ParleyError) -> EventLoop {
        switch group {
        case .success(let group): return group.next()
        case .failure(let error): throw ParleyError(.network, "event loop: \(error)")
        }
    }

    /// The TLS client context trusting `caFile` (PEM), or nil for the system's trust store.
    static func tlsContext(caFile: String?) throws(ParleyError) -> TLSContext? {
        guard let caFile else { return nil }
        do throws(NetError) {
            return try TLSContext.client(trusting: caFile)
        } catch {
            throw ParleyError(.invalidArgument, "TLS: \(error)")
        }
    }

    /// Resolves a host name off the loop (name resolution blocks).
    static func address(host: String, port: Int) async throws(ParleyError) -> SocketAddress {
        if let literal = SocketAddress(host: host, port: port) { return literal }
        let result: Result<[SocketAddress], NetError> = await Task.detached {
            do throws(NetError) { return .success(try SocketAddress.resolve(host: host, port: port)) } catch { return .failure(error) }
        }.value
        switch result {
        case .success(let addresses):
            guard let first = addresses.first else { throw ParleyError(.network, "no address for \(host)") }
            return first
        case .failure(let error): throw ParleyError(.network, "resolving \(host): \(error)")
        }
    }
}
#endif
