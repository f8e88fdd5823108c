/// Where a Redis server is and how to log in: `redis://[user:password@]host[:port][/db]`,
/// as `--redis`, `PARLEY_REDIS` and the config file's `"redis"` give it.
///
/// User and password may be percent-encoded (a password with `@` or `/` in it must be);
/// an IPv6 host is written in brackets. Only `redis://` is accepted: a `rediss://` (TLS)
/// address is refused by name rather than silently sent in the clear.
public struct RedisURL: Sendable, Equatable, CustomStringConvertible {
    /// The host name or address (without brackets).
    public var host: String
    /// The TCP port (6379 when not given).
    public var port: Int
    /// The ACL user for `AUTH`, when given (`redis://:password@…` gives only a password).
    public var user: String?
    /// The password for `AUTH`, when given.
    public var password: String?
    /// The logical database selected after connecting (0 when not given).
    public var database: Int

    /// Why a Redis URL was refused.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The stable code: `redis_url_invalid` or `redis_url_tls_unsupported`.
        public var code: String
        /// What is wrong, for people.
        public var message: String

        /// `code: message`.
        public var description: String { "\(code): \(message)" }

        static func invalid(_ message: String) -> ParseError { ParseError(code: "redis_url_invalid", message: message) }
    }

    /// Creates an address from its parts.
    public init(host: String, port: Int = 6379, user: String? = nil, password: String? = nil, database: Int = 0) {
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.database = database
    }

    /// Parses `redis://[user:password@]host[:port][/db]`.
    public init(parsing text: String) throws(ParseError) {
        if text.hasPrefix("rediss://") {
            throw ParseError(
                code: "redis_url_tls_unsupported", message: "rediss:// (TLS to Redis) is not supported; use redis:// on a private network")
        }
        guard text.hasPrefix("redis://") else { throw .invalid("must start with redis://") }
        var rest = Substring(text.dropFirst("redis://".count))
        guard !rest.contains("?"), !rest.contains("#") else { throw .invalid("query and fragment are not supported") }
        var database = 0
        if let slash = rest.firstIndex(of: "/") {
            let path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
            if !path.isEmpty {
                guard path.count <= 5, path.allSatisfy(\.isASCIIDigitCharacter), let number = Int(path) else {
                    throw .invalid("the database must be a number, as in redis://host:6379/0")
                }
                database = number
            }
        }
        var user: String?
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = credentials.firstIndex(of: ":") {
                user = try Self.decoded(credentials[..<colon], what: "user")
                password = try Self.decoded(credentials[credentials.index(after: colon)...], what: "password")
            } else {
                user = try Self.decoded(credentials, what: "user")
            }
            if user?.isEmpty == true { user = nil }
        }
        let (host, port) = try Self.hostAndPort(rest)
        self.init(host: host, port: port, user: user, password: password, database: database)
    }

    /// The address with the password hidden, for logs.
    public var description: String {
        let credentials =
            switch (user, password) {
            case (let user?, _?): "\(user):***@"
            case (nil, _?): ":***@"
            case (let user?, nil): "\(user)@"
            case (nil, nil): ""
            }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "redis://\(credentials)\(shownHost):\(port)/\(database)"
    }

    private static func hostAndPort(_ text: Substring) throws(ParseError) -> (String, Int) {
        var host: Substring
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw .invalid("unclosed [ in an IPv6 host") }
            host = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .invalid("unexpected text after the IPv6 host") }
                portText = after.dropFirst()
            }
        } else if let colon = text.firstIndex(of: ":") {
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        } else {
            host = text
        }
        guard !host.isEmpty else { throw .invalid("a host is required, as in redis://127.0.0.1:6379") }
        guard host.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "/" && $0 != "@" }) else {
            throw .invalid("the host has characters a host name cannot have")
        }
        var port = 6379
        if let portText {
            guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy(\.isASCIIDigitCharacter),
                let number = Int(portText), (1...65535).contains(number)
            else {
                throw .invalid("the port must be a number from 1 to 65535")
            }
            port = number
        }
        return (String(host), port)
    }

    private static func decoded(_ text: Substring, what: String) throws(ParseError) -> String {
        guard text.contains("%") else { return String(text) }
        guard let decoded = PusherQuery.percentDecode(text) else { throw .invalid("the \(what) has a malformed %-escape") }
        return decoded
    }
}

extension Character {
    fileprivate var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
