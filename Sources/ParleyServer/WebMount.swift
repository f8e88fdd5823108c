import ParleyChannels
import ParleyNet
import ParleyWire

/// Serves the browser chat client: `/` (the page, revalidated on every load),
/// `/web/{version}/{file}` (its modules, styles and icon; cached for a year when the version
/// is current) and `/web/config.json` (which app, which sign-in). Every answer carries the
/// client's Content-Security-Policy, an `ETag` (`If-None-Match` gets 304) and, when the
/// browser accepts it, the gzip form.
struct WebMount {
    let client: WebClient

    /// Mounts the client unless `--no-web` or no app is configured.
    static func mountIfEnabled(on routes: inout HTTPRoutes, options: ServeOptions, apps: [AppConfig]?) throws(ServerStartError) {
        guard options.web.enabled, let apps, !apps.isEmpty else { return }
        do {
            let client = try WebClient(files: WebAssetFiles.files, options: options, apps: apps)
            WebMount(client: client).mount(on: &routes)
        } catch {
            throw ServerStartError(code: "web_client", message: error.message)
        }
    }

    func mount(on routes: inout HTTPRoutes) {
        let client = self.client
        routes.get("/") { request, responder in
            responder.respond(Self.answer(client.index, request: request, cacheControl: "no-cache", client: client))
        }
        routes.get("/web/config.json") { _, responder in
            var headers = client.securityHeaders
            headers.add("Content-Type", "application/json")
            headers.add("Cache-Control", "no-store")
            responder.respond(status: .ok, headers: headers, body: client.settings)
        }
        routes.get("/web/{version}/{file}") { request, responder in
            guard let asset = client.assets[request.parameters["file"] ?? ""] else {
                var response = HTTPResponse.error(.notFound, code: "not_found", message: "no such file")
                for field in client.securityHeaders { response.headers.add(field.name, field.value) }
                responder.respond(response)
                return
            }
            // An old page asking for another build's file gets today's, but must not keep it.
            let current = request.parameters["version"] == client.version
            responder.respond(
                Self.answer(
                    asset, request: request, cacheControl: current ? "public, max-age=31536000, immutable" : "no-cache",
                    client: client))
        }
    }

    /// The asset, its gzip form, or 304 when the browser's copy is current.
    static func answer(_ asset: WebAsset, request: HTTPRequest, cacheControl: String, client: WebClient) -> HTTPResponse {
        var headers = client.securityHeaders
        headers.add("Cache-Control", cacheControl)
        headers.add("Vary", "Accept-Encoding")
        let gzip = asset.gzipped.flatMap { WebAsset.acceptsGzip(request.headers.first("Accept-Encoding")) ? $0 : nil }
        headers.add("ETag", gzip == nil ? asset.etag : asset.gzipETag)
        if asset.matches(ifNoneMatch: request.headers.first("If-None-Match")) {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        headers.add("Content-Type", asset.contentType)
        if gzip != nil { headers.add("Content-Encoding", "gzip") }
        return HTTPResponse(status: .ok, headers: headers, body: gzip ?? asset.body)
    }
}
