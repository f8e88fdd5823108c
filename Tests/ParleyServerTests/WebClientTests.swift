import ParleyChannels
import ParleyWire
import Testing

@testable import ParleyServer

@Suite struct WebClientTests {
    @Test func webFlagsAndTheirVariables() throws {
        let flags = try ServeOptions.parse(["--web-app", "7", "--web-token-url", "https://Auth.Example.com:8443/token?x=1", "--no-web"])
        #expect(
            flags.web
                == {
                    var web = WebOptions()
                    web.enabled = false
                    web.appID = "7"
                    web.tokenURL = "https://Auth.Example.com:8443/token?x=1"
                    return web
                }())
        let env = try ServeOptions.parse([], environment: ["PARLEY_WEB_TOKEN_URL": "/auth/token", "PARLEY_NO_WEB": "0"])
        #expect(env.web.tokenURL == "/auth/token" && env.web.enabled)
        for bad in ["javascript:alert(1)", "ftp://host/x", "http://a b/", "https://x;script-src *"] {
            #expect(throws: ServeOptionsError.self, "\(bad)") { try ServeOptions.parse(["--web-token-url", bad]) }
        }
    }

    @Test func tokenURLOriginsAreLowercasedHostAndPortOnly() {
        #expect(WebOptions.origin(of: "HTTPS://Auth.Example.com:8443/token?x=1") == "https://auth.example.com:8443")
        #expect(WebOptions.origin(of: "http://127.0.0.1:7000") == "http://127.0.0.1:7000")
        #expect(WebOptions.origin(of: "http://user@evil/x") == nil)
        #expect(WebOptions.origin(of: "/token") == nil)
    }

    @Test func gzipIsAcceptedUnlessRefused() {
        #expect(WebAsset.acceptsGzip("gzip, deflate, br"))
        #expect(WebAsset.acceptsGzip("br;q=1.0, gzip;q=0.5"))
        #expect(WebAsset.acceptsGzip("*"))
        #expect(!WebAsset.acceptsGzip("gzip;q=0"))
        #expect(!WebAsset.acceptsGzip("gzip; q=0.000"))
        #expect(!WebAsset.acceptsGzip("identity"))
        #expect(!WebAsset.acceptsGzip(nil))
    }

    @Test func entityTagsMatchEitherRepresentation() throws {
        let asset = WebAsset(name: "app.js", body: Array(String(repeating: "const x = 1;\n", count: 200).utf8))
        let gzipped = try #require(asset.gzipped)
        #expect(gzipped.count < asset.body.count && gzipped.starts(with: [0x1f, 0x8b]))
        #expect(asset.contentType == "text/javascript; charset=utf-8")
        #expect(asset.matches(ifNoneMatch: asset.etag) && asset.matches(ifNoneMatch: "W/" + asset.gzipETag))
        #expect(asset.matches(ifNoneMatch: "\"a\", " + asset.etag) && asset.matches(ifNoneMatch: "*"))
        #expect(!asset.matches(ifNoneMatch: "\"other\"") && !asset.matches(ifNoneMatch: nil))
    }

    @Test func theClientVersionsItsFilesAndNamesTheApp() throws {
        var options = ServeOptions()
        options.web.tokenURL = "http://127.0.0.1:7000/token"
        let apps = [AppConfig(id: "1", key: "k1", secret: "s"), AppConfig(id: "2", key: "k2", secret: "s")]
        options.web.appID = "2"
        let files = [(name: "index.html", text: "<script src=\"{{BASE}}/app.js\"></script>"), (name: "app.js", text: "x()")]
        let client = try WebClient(files: files, options: options, apps: apps)
        #expect(String(decoding: client.index.body, as: UTF8.self) == "<script src=\"/web/\(client.version)/app.js\"></script>")
        #expect(client.assets["app.js"]?.body == Array("x()".utf8))
        let settings = try JSONParser.parse(client.settings)
        #expect(settings["app_key"]?.stringValue == "k2" && settings["token_url"]?.stringValue == "http://127.0.0.1:7000/token")
        #expect(client.securityHeaders.first("Content-Security-Policy")?.contains("connect-src 'self' http://127.0.0.1:7000;") == true)
        let changed = try WebClient(files: [files[0], (name: "app.js", text: "y()")], options: options, apps: apps)
        #expect(changed.version != client.version)
        options.web.appID = "9"
        #expect(throws: WebClient.SetupError.self) { try WebClient(files: files, options: options, apps: apps) }
    }

    @Test func theEmbeddedClientHasItsPageAndModules() throws {
        let names = Set(WebAssetFiles.files.map(\.name))
        #expect(names.isSuperset(of: ["index.html", "app.js", "api.js", "realtime.js", "style.css"]))
        let client = try WebClient(files: WebAssetFiles.files, options: ServeOptions(), apps: [AppConfig.development])
        #expect(!String(decoding: client.index.body, as: UTF8.self).contains(WebClient.basePlaceholder))
    }
}
