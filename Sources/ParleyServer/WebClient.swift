import ParleyChannels
import ParleyWire

/// The browser chat client as this server serves it: the embedded files (``WebAssetFiles``)
/// compressed and tagged once at start, the page's settings, and its security headers.
///
/// The files live under `/web/{version}/`, where `version` is a digest of all of them, so a
/// page always loads the modules of its own build and they can be cached for good; only
/// `/` (which names the version) is revalidated on every load.
struct WebClient: Sendable {
    /// Digest of every file: the path segment that makes asset URLs immutable.
    let version: String
    /// The page at `/`, with the version filled in.
    let index: WebAsset
    /// The other files by name (`app.js`, `style.css`…).
    let assets: [String: WebAsset]
    /// `GET /web/config.json`: the app to chat in and how to sign in.
    let settings: [UInt8]
    /// Headers every answer carries: CSP and friends.
    let securityHeaders: HTTPHeaders

    /// The placeholder `index.html` uses for `/web/{version}`.
    static let basePlaceholder = "{{BASE}}"

    /// Why the page cannot be served as configured.
    struct SetupError: Error {
        let message: String
    }

    init(files: [(name: String, text: String)], options: ServeOptions, apps: [AppConfig]) throws(SetupError) {
        guard let app = options.web.appID.map({ id in apps.first { $0.id == id } }) ?? apps.first else {
            throw SetupError(message: "--web-app \(options.web.appID ?? ""): no such app in the config")
        }
        var digestInput: [UInt8] = []
        for file in files { digestInput += Array(file.name.utf8) + [0] + Array(file.text.utf8) + [0] }
        version = Digest.sha256(digestInput).prefix(6).hexString
        var assets: [String: WebAsset] = [:]
        var index: WebAsset?
        for file in files {
            if file.name == "index.html" {
                let text = file.text.replacingAll(Self.basePlaceholder, with: "/web/" + version)
                index = WebAsset(name: file.name, body: Array(text.utf8))
            } else {
                assets[file.name] = WebAsset(name: file.name, body: Array(file.text.utf8))
            }
        }
        guard let index else { throw SetupError(message: "the embedded web client has no index.html") }
        self.index = index
        self.assets = assets
        var settings: JSONObject = ["app_key": .string(app.key), "app_id": .string(app.id), "dev": .bool(options.dev)]
        settings["token_url"] = options.web.tokenURL.map(JSONValue.string) ?? .null
        self.settings = JSONWriter.serialize(.object(settings))
        securityHeaders = Self.securityHeaders(tokenURL: options.web.tokenURL)
    }

    /// A strict policy: scripts, styles and images only from this origin (images also from
    /// `blob:` for local previews of uploads), connections only to it (WebSockets included)
    /// and to the token URL's origin when that is another one; no plugins, frames or
    /// inline script.
    static func securityHeaders(tokenURL: String?) -> HTTPHeaders {
        var connect = "'self'"
        if let origin = tokenURL.flatMap(WebOptions.origin(of:)) { connect += " " + origin }
        let policy = [
            "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' blob:",
            "connect-src \(connect)", "manifest-src 'self'", "base-uri 'none'", "form-action 'none'",
            "frame-ancestors 'none'", "object-src 'none'"
        ].joined(separator: "; ")
        return [
            "Content-Security-Policy": policy,
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer",
            "X-Frame-Options": "DENY",
            "Cross-Origin-Opener-Policy": "same-origin"
        ]
    }
}

extension String {
    /// Every occurrence of `target` replaced (no Foundation here).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            out += rest[..<range.lowerBound]
            out += replacement
            rest = rest[range.upperBound...]
        }
        return out + rest
    }
}
