extension ServeOptions {
    /// The flags of ``WebOptions``: the browser client served at `/`.
    static let webFlags: [Flag] = [
        Flag(
            name: "--no-web", environment: "PARLEY_NO_WEB", placeholder: nil,
            help: "Do not serve the browser chat client at / (default: served)"
        ) {
            o, v throws(ServeOptionsError) in o.web.enabled = try !boolean(v, flag: "--no-web")
        },
        Flag(
            name: "--web-app", environment: "PARLEY_WEB_APP", placeholder: "ID",
            help: "App the browser client chats in (default: the first app)"
        ) {
            o, v throws(ServeOptionsError) in o.web.appID = v
        },
        Flag(
            name: "--web-token-url", environment: "PARLEY_WEB_TOKEN_URL", placeholder: "URL",
            help: "App backend the browser client asks for tokens: POST URL {\"user_id\"} -> {\"token\"}"
        ) {
            o, v throws(ServeOptionsError) in
            guard WebOptions.origin(of: v) != nil || v.hasPrefix("/") else {
                throw ServeOptionsError(code: "invalid_value", message: "--web-token-url must be an http(s):// URL or a path, not '\(v)'")
            }
            o.web.tokenURL = v
        }
    ]
}

extension WebOptions {
    /// `scheme://host[:port]` of an absolute http(s) URL, lowercased; nil for anything else.
    static func origin(of url: String) -> String? {
        let lowered = url.lowercased()
        let scheme: String
        if lowered.hasPrefix("http://") {
            scheme = "http://"
        } else if lowered.hasPrefix("https://") {
            scheme = "https://"
        } else {
            return nil
        }
        let authority = lowered.dropFirst(scheme.count).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.isEmpty, authority.unicodeScalars.allSatisfy(isAuthorityScalar) else { return nil }
        return scheme + authority
    }

    /// Host and port characters: nothing that could end a CSP source or smuggle user info.
    private static func isAuthorityScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "0"..."9", "-", ".", ":", "[", "]": true
        default: false
        }
    }
}
