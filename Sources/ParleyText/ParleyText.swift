/// A Yjs-compatible text CRDT.
public enum ParleyTextInfo {
    /// The module's name, used in diagnostics.
    public static let name = "ParleyText"
}
