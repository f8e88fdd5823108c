/// Why a channels configuration is refused; `path` says where (e.g. `apps[1].webhooks[0].url`).
public struct ChannelsConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The JSON path of the offending value.
    public var path: String
    /// What is wrong with it.
    public var message: String

    /// Creates an error.
    public init(_ path: String, _ message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "channels config: \(path): \(message)" }
}
