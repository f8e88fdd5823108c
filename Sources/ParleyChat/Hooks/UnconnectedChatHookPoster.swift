/// The poster of a service given none: every request fails at once.
public struct UnconnectedChatHookPoster: ChatHookPoster {
    /// Creates the poster.
    public init() {}

    public func post(_ request: ChatHookRequest, completion: @escaping @Sendable (ChatHookAnswer?) -> Void) { completion(nil) }
}
