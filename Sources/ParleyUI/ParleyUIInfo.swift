/// ParleyUI: placeholder until the module lands.
public enum ParleyUIInfo {
    /// The module's name, used in diagnostics.
    public static let name = "ParleyUI"
}
