import ParleyStore

/// A chat API failure: a stable code (which fixes the HTTP status) and a human-readable message.
public struct ChatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The stable code.
    public var code: ChatErrorCode
    /// An explanation for people; not stable.
    public var message: String
    /// Extra response headers (`Allow`, `Retry-After`, `WWW-Authenticate`).
    public var headers: [String: String]

    /// Creates an error.
    public init(_ code: ChatErrorCode, _ message: String, headers: [String: String] = [:]) {
        self.code = code
        self.message = message
        self.headers = headers
    }

    /// The code and message, for logs.
    public var description: String { "\(code.rawValue): \(message)" }

    /// Turns any error into a chat error; `StoreError.notFound` becomes `notFound`'s code.
    static func from(_ error: any Error, notFound: ChatErrorCode) -> ChatError {
        if let chat = error as? ChatError { return chat }
        if let store = error as? StoreError { return from(store, notFound: notFound) }
        return ChatError(.internal, "unexpected failure")
    }

    /// The chat answer to a storage failure.
    static func from(_ error: StoreError, notFound: ChatErrorCode) -> ChatError {
        switch error.code {
        case .notFound: return ChatError(notFound, error.message)
        case .alreadyExists: return ChatError(.alreadyExists, error.message)
        case .foreignKeyViolation: return ChatError(.userNotFound, error.message)
        case .constraintViolation, .invalidArgument, .limitReached: return ChatError(.validationFailed, error.message)
        case .conflict: return ChatError(.conflict, error.message)
        case .notMember: return ChatError(.notMember, error.message)
        case .lastAdmin: return ChatError(.lastAdmin, error.message)
        case .retired: return ChatError(.roomIDRetired, error.message)
        case .parentNotFound: return ChatError(.parentNotFound, error.message)
        case .parentDeleted: return ChatError(.parentDeleted, error.message)
        case .quotedNotFound: return ChatError(.quotedMessageNotFound, error.message)
        case .quotedDeleted: return ChatError(.quotedMessageDeleted, error.message)
        case .busy, .connectionLost, .closed, .io:
            // A database restart or a deadlock passes in moments: say when trying again makes sense.
            return ChatError(.unavailable, "storage unavailable: \(error.code.rawValue)", headers: ["Retry-After": "1"])
        case .slowMode:
            return ChatError(.slowMode, error.message, headers: ["Retry-After": String(error.retryAfterSeconds ?? 1)])
        case .schemaTooNew, .corrupt, .internal: return ChatError(.internal, "storage failure: \(error.code.rawValue)")
        }
    }
}
