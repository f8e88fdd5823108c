#if canImport(ParleyNet)
import ParleyNet

/// The process-wide event loop the SDK's sockets run on (one thread, started on first use).
enum NetRuntime {
    private static let shared: Result<EventLoopGroup, NetError> = {
        do throws(NetError) {
            return .success(try EventLoopGroup(threads: 1, logger: .standardError()))
        } catch {
            return .failure(error)
        }
    }()

    /// The loop, or why it could not start.
    static func loop() throws(ParleyError) -> EventLoop {
        try group().get().next()
    }

    /// The loop's group, or why it could not start.
    static func group() -> Result<EventLoopGroup, ParleyError> {
        shared.mapError { ParleyError(.network, "event loop: \($0)") }
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
}
#endif
