/// Maps a method and a path to a handler, with `{name}` parameters and a `{name...}` catch-all.
///
/// Patterns are slash-separated segments: literals match exactly (case-sensitive),
/// `{name}` matches any one segment, and a final `{name...}` matches the rest of the path
/// (zero or more segments, joined with `/`). Empty segments are ignored on both sides, so
/// a trailing slash makes no difference. When several patterns match, literals win over
/// parameters and parameters over a catch-all, whatever the order they were added in.
/// HEAD falls back to the GET handler; a path that matches only under other methods gives
/// `.methodNotAllowed` with the methods to list in `Allow`.
public struct HTTPRouter<Handler> {
    /// The outcome of matching a request.
    public enum Match {
        /// A handler, with the decoded values of the pattern's parameters.
        case found(Handler, parameters: [String: String])
        /// The path exists, but not for this method (answer 405 with `Allow`).
        case methodNotAllowed(allowed: [HTTPMethod])
        /// No pattern matches the path (answer 404).
        case notFound
    }

    /// The trie; routes name their handler by index into `handlers`.
    private var trie = RouteTrie()
    private var handlers: [Handler] = []

    /// Creates an empty router.
    public init() {}

    /// Adds a handler for a method and pattern, such as `/apps/{appId}/channels/{channelName}`.
    /// Adding the same method and pattern again replaces the handler.
    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: Handler) {
        handlers.append(handler)
        trie.add(method, pattern, handler: handlers.count - 1)
    }

    /// Matches a decoded path, splitting it at every `/`.
    public func match(method: HTTPMethod, path: String) -> Match {
        match(method: method, segments: path.split(separator: "/").map(String.init))
    }

    /// Matches a parsed target by its decoded segments (so `%2F` inside a segment stays there).
    public func match(method: HTTPMethod, target: HTTPTarget) -> Match {
        match(method: method, segments: target.pathSegments)
    }

    /// Matches decoded path segments; empty segments are ignored.
    public func match(method: HTTPMethod, segments: [String]) -> Match {
        switch trie.match(method: method, segments: segments) {
        case .found(let index, let parameters): return .found(handlers[index], parameters: parameters)
        case .methodNotAllowed(let allowed): return .methodNotAllowed(allowed: allowed)
        case .notFound: return .notFound
        }
    }
}

extension HTTPRouter: Sendable where Handler: Sendable {}
extension HTTPRouter.Match: Sendable where Handler: Sendable {}
