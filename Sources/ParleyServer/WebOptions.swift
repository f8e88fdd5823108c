/// How `parley serve` serves the browser chat client (Parley Web) at `/`.
public struct WebOptions: Sendable, Equatable {
    /// Whether the page is served at all (`--no-web` turns it off).
    public var enabled: Bool = true
    /// The app the page chats in; nil is the first app of the config (`1` with `--dev`).
    public var appID: String? = nil
    /// Where the page asks for a user token outside `--dev`: `POST URL {"user_id"}` answered
    /// by `{"token"}` (the app's backend, as `parley chat --token-url`). nil: only `--dev`
    /// sign-in (or none).
    public var tokenURL: String? = nil

    /// Creates the defaults.
    public init() {}
}
