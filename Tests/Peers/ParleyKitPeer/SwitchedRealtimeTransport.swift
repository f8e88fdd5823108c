import ParleyKit

/// Realtime connections through the ``NetworkSwitch``.
struct SwitchedRealtimeTransport: RealtimeTransport {
    let network: NetworkSwitch
    let inner: any RealtimeTransport

    func connect(url: String) async throws(ParleyError) -> any RealtimeConnection {
        guard network.isOn else { throw ParleyError(.network, "network is off") }
        let connection = SwitchedRealtimeConnection(inner: try await inner.connect(url: url))
        // Switched off while connecting: the connection arrives already dropped.
        let id = network.register(connection)
        connection.start { if let id { network.forget(id) } }
        return connection
    }
}
