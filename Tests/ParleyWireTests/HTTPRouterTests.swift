import Testing

@testable import ParleyWire

@Suite struct HTTPRouterTests {
    private func sample() -> HTTPRouter<String> {
        var router = HTTPRouter<String>()
        router.add(.GET, "/healthz", "health")
        router.add(.POST, "/apps/{appId}/events", "trigger")
        router.add(.GET, "/apps/{appId}/channels", "channels")
        router.add(.GET, "/apps/{appId}/channels/{channelName}", "channel")
        router.add(.GET, "/apps/{appId}/channels/{channelName}/users", "users")
        router.add(.GET, "/users/me", "me")
        router.add(.GET, "/users/{id}", "user")
        router.add(.DELETE, "/users/{id}", "delete-user")
        router.add(.GET, "/static/{path...}", "static")
        return router
    }

    private func found(_ match: HTTPRouter<String>.Match) -> (String, [String: String])? {
        if case .found(let handler, let parameters) = match { return (handler, parameters) }
        return nil
    }

    @Test func matchesLiteralAndParameters() throws {
        let router = sample()
        #expect(try #require(found(router.match(method: .GET, path: "/healthz"))).0 == "health")
        let channel = try #require(found(router.match(method: .GET, path: "/apps/42/channels/presence-room")))
        #expect(channel.0 == "channel")
        #expect(channel.1 == ["appId": "42", "channelName": "presence-room"])
        let users = try #require(found(router.match(method: .GET, path: "/apps/42/channels/c/users")))
        #expect(users.0 == "users")
    }

    @Test func literalBeatsParameterRegardlessOfOrder() throws {
        var router = HTTPRouter<String>()
        router.add(.GET, "/users/{id}", "user")
        router.add(.GET, "/users/me", "me")
        #expect(try #require(found(router.match(method: .GET, path: "/users/me"))).0 == "me")
        #expect(try #require(found(router.match(method: .GET, path: "/users/7"))).1 == ["id": "7"])
    }

    @Test func methodIsLookedUpAcrossMatchingPatterns() throws {
        let router = sample()
        // "/users/me" only has GET, but "/users/{id}" also matches and has DELETE.
        let deleted = try #require(found(router.match(method: .DELETE, path: "/users/me")))
        #expect(deleted.0 == "delete-user")
        #expect(deleted.1 == ["id": "me"])
    }

    @Test func wrongMethodGives405WithAllowedMethods() {
        let router = sample()
        guard case .methodNotAllowed(let allowed) = router.match(method: .PUT, path: "/users/9") else {
            Issue.record("expected 405"); return
        }
        #expect(allowed == [.GET, .DELETE, .HEAD])
        guard case .methodNotAllowed(let postOnly) = router.match(method: .GET, path: "/apps/1/events") else {
            Issue.record("expected 405"); return
        }
        #expect(postOnly == [.POST])
    }

    @Test func unknownPathGives404() {
        let router = sample()
        for path in ["/", "/nope", "/apps", "/apps/1/channels/c/users/extra", "/healthz/x"] {
            guard case .notFound = router.match(method: .GET, path: path) else {
                Issue.record("expected 404 for \(path)"); continue
            }
        }
    }

    @Test func headFallsBackToGet() throws {
        var router = sample()
        #expect(try #require(found(router.match(method: .HEAD, path: "/healthz"))).0 == "health")
        router.add(.HEAD, "/healthz", "explicit-head")
        #expect(try #require(found(router.match(method: .HEAD, path: "/healthz"))).0 == "explicit-head")
    }

    @Test func catchAllTakesTheRest() throws {
        let router = sample()
        let deep = try #require(found(router.match(method: .GET, path: "/static/css/site.css")))
        #expect(deep.0 == "static")
        #expect(deep.1 == ["path": "css/site.css"])
        let root = try #require(found(router.match(method: .GET, path: "/static")))
        #expect(root.1 == ["path": ""])
    }

    @Test func trailingAndDoubleSlashesAreIgnored() throws {
        let router = sample()
        #expect(try #require(found(router.match(method: .GET, path: "/apps/1/channels/"))).0 == "channels")
        #expect(try #require(found(router.match(method: .GET, path: "//healthz"))).0 == "health")
    }

    @Test func targetMatchingKeepsEncodedSlashesInsideASegment() throws {
        let router = sample()
        let target = try HTTPTarget("/apps/1/channels/a%2Fb")
        let match = try #require(found(router.match(method: .GET, target: target)))
        #expect(match.0 == "channel")
        #expect(match.1["channelName"] == "a/b")
    }

    @Test func addingTheSameRouteAgainReplacesIt() throws {
        var router = HTTPRouter<String>()
        router.add(.GET, "/x", "old")
        router.add(.GET, "/x", "new")
        #expect(try #require(found(router.match(method: .GET, path: "/x"))).0 == "new")
    }

    @Test func differentParameterNamesAtTheSamePosition() throws {
        var router = HTTPRouter<String>()
        router.add(.GET, "/a/{x}", "get")
        router.add(.PUT, "/a/{y}", "put")
        #expect(try #require(found(router.match(method: .GET, path: "/a/1"))).1 == ["x": "1"])
        #expect(try #require(found(router.match(method: .PUT, path: "/a/1"))).1 == ["y": "1"])
    }

    @Test func routerIsSendableWithSendableHandlers() {
        let router = sample()
        let box: any Sendable = router
        #expect(box is HTTPRouter<String>)
    }
}
