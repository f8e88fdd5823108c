/// The per-address count a connection from a trusted proxy holds for the client it carries
/// now (``TrustedProxies``): the proxy itself is not capped, the client it forwards for is,
/// as if that client had connected directly. A keep-alive proxy connection may carry several
/// clients in turn; it counts for the latest, until it closes.
final class ForwardedAddressHold: @unchecked Sendable {
    // @unchecked: used only on the connection's loop (its requests and its close observer run there).
    private let admission: ConnectionAdmission
    private var key: ClientAddressKey?

    init(admission: ConnectionAdmission) { self.admission = admission }

    /// Counts the connection for `client` from now on (nil: nobody capped); false when that
    /// client holds the most connections already (the previous count stays until close).
    func move(to client: SocketAddress?) -> Bool {
        guard let client, let next = admission.limitedKey(client) else {
            release()
            return true
        }
        guard next != key else { return true }
        guard admission.take(next) else { return false }
        release()
        key = next
        return true
    }

    /// Drops the count (the connection closed).
    func release() {
        if let key { admission.give(key) }
        key = nil
    }
}
