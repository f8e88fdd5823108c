import ParleyChannels

/// Who a request acts as, once authenticated.
public enum ChatCaller: Sendable, Hashable {
    /// A signed-in user of the app (a verified token's `sub`).
    case user(String)
    /// The app's own backend (key and secret): may do anything within the app.
    case app

    /// The user id, when a user is calling.
    var userID: String? {
        if case .user(let id) = self { return id }
        return nil
    }
}

/// An authenticated request's app and caller.
struct ChatContext: Sendable {
    /// The app addressed.
    var app: AppConfig
    /// Who is calling.
    var caller: ChatCaller
    /// The user token's `iat`, for the revocation check (nil for app calls and tokens without one).
    var tokenIssuedAt: Int64? = nil

    /// The app's id, the store's namespace.
    var appID: String { app.id }

    /// The calling user's id, or `userTokenRequired` for app-level calls.
    func requireUser() throws(ChatError) -> String {
        guard let id = caller.userID else {
            throw ChatError(.userTokenRequired, "this endpoint acts as a user: send a user token")
        }
        return id
    }

    /// Whether the caller is the app's backend.
    var isApp: Bool { caller == .app }
}
