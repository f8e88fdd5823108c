import ParleyWire

/// Event loops, sockets and connections that drive ParleyWire's state machines.
public enum ParleyNetInfo {
    /// The module's name, used in diagnostics.
    public static let name = "ParleyNet"
}
