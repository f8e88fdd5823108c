/// ParleyKit: placeholder until the module lands.
public enum ParleyKitInfo {
    /// The module's name, used in diagnostics.
    public static let name = "ParleyKit"
}
