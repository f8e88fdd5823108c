/// Why a `parley chat` command line could not be understood.
public struct ChatOptionsError: Error, Equatable, CustomStringConvertible {
    /// A stable identifier of the problem.
    public let code: String
    /// What to tell the user.
    public let message: String
    public var description: String { message }
}
