/// The collaborative documents service: CRDT documents persisted and synced by the server.
public enum ParleyDocsInfo {
    /// The module's name, used in diagnostics.
    public static let name = "ParleyDocs"
}
