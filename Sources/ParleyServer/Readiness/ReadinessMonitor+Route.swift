import ParleyNet
import ParleyStore
import ParleyWire

extension ReadinessMonitor {
    /// `GET /readyz`: 200 `{"status":"ready"}` when the store answers and the server is not
    /// draining; otherwise 503 with the house error shape, whose code says why
    /// (`store_unreachable`, `draining`). `/healthz` stays 200 as long as the process serves.
    func mount(on routes: inout HTTPRoutes) {
        routes.get("/readyz") { [self] _, responder in
            Task(executorPreference: responder.loop) {
                guard let problem = await self.check() else {
                    responder.respond(.json(#"{"status":"ready"}"#))
                    return
                }
                responder.respond(.error(HTTPStatus(503), code: problem.code, message: problem.message))
            }
        }
    }
}

extension ParleyServer {
    /// The readiness probe of a store: one trivial query on a reader connection (which
    /// reconnects first when its connection was lost, so a recovered database is seen at once).
    static func storeProbe(_ store: SQLChatStore) -> ReadinessMonitor.Probe {
        {
            _ = try await store.database.read { context in try context.queryFirst("SELECT 1") { _ in true } }
        }
    }
}
