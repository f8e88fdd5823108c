/// The Parley release this build carries.
public enum ParleyVersion {
    /// Semantic version string reported by `parley --version` and `GET /version`.
    public static let string = "0.1.0"
}
