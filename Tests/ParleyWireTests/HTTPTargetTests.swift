import Testing

@testable import ParleyWire

@Suite struct HTTPTargetTests {
    @Test func splitsPathAndQuery() throws {
        let target = try HTTPTarget("/apps/123/events?auth_key=k&auth_timestamp=1&body_md5=abc")
        #expect(target.rawPath == "/apps/123/events")
        #expect(target.path == "/apps/123/events")
        #expect(target.pathSegments == ["apps", "123", "events"])
        #expect(target.rawQuery == "auth_key=k&auth_timestamp=1&body_md5=abc")
        #expect(target.query.map(\.0) == ["auth_key", "auth_timestamp", "body_md5"])
        #expect(target.query("auth_timestamp") == "1")
        #expect(target.query("missing") == nil)
    }

    @Test func percentDecodesPathAndSegmentsSeparately() throws {
        let target = try HTTPTarget("/rooms/a%2Fb/caf%C3%A9%20x")
        #expect(target.path == "/rooms/a/b/café x")
        #expect(target.pathSegments == ["rooms", "a/b", "café x"])
        #expect(target.rawPath == "/rooms/a%2Fb/caf%C3%A9%20x")
    }

    @Test func plusIsSpaceOnlyInTheQuery() throws {
        let target = try HTTPTarget("/a+b?q=a+b%2Bc&name=J%C3%BCrgen")
        #expect(target.path == "/a+b")
        #expect(target.query("q") == "a b+c")
        #expect(target.query("name") == "Jürgen")
    }

    @Test func queryEdgeCases() throws {
        let target = try HTTPTarget("/?a=1&&b&c=&a=2&=v&d=x=y")
        #expect(target.queryValues("a") == ["1", "2"])
        #expect(target.query("b") == "")
        #expect(target.query("c") == "")
        #expect(target.query("") == "v")
        #expect(target.query("d") == "x=y")
        #expect(try HTTPTarget("/x?").rawQuery == "")
        #expect(try HTTPTarget("/x?").query.isEmpty)
        #expect(try HTTPTarget("/x").rawQuery == nil)
    }

    @Test func emptySegmentsAreDropped() throws {
        #expect(try HTTPTarget("/a//b/").pathSegments == ["a", "b"])
        #expect(try HTTPTarget("/").pathSegments == [])
    }

    @Test func aPlainPathKeepsLongSegmentsWholeAndStillRejectsBadBytes() throws {
        let target = try HTTPTarget("/v1/rooms/c98bbjhmbwz5t4n2tepm0123456789/messages")
        #expect(target.path == "/v1/rooms/c98bbjhmbwz5t4n2tepm0123456789/messages")
        #expect(target.rawPath == target.path)
        #expect(target.pathSegments == ["v1", "rooms", "c98bbjhmbwz5t4n2tepm0123456789", "messages"])
        #expect(target.query.isEmpty && target.rawQuery == nil)
        #expect(throws: HTTPParseError.self) { try HTTPTarget("/v1/ro oms") }
        #expect(throws: HTTPParseError.self) { try HTTPTarget("/v1/\u{7F}") }
    }

    @Test func fragmentIsIgnored() throws {
        let target = try HTTPTarget("/p?q=1#frag")
        #expect(target.path == "/p")
        #expect(target.query("q") == "1")
    }

    @Test func absoluteFormDropsTheAuthority() throws {
        let target = try HTTPTarget("http://example.com:8080/x/y?z=1")
        #expect(target.path == "/x/y")
        #expect(target.query("z") == "1")
        #expect(try HTTPTarget("HTTPS://example.com").path == "/")
        #expect(try HTTPTarget("http://h?x=1").query("x") == "1")
    }

    @Test func asteriskForm() throws {
        let target = try HTTPTarget("*")
        #expect(target.path == "*")
        #expect(target.pathSegments.isEmpty)
    }

    @Test(arguments: ["/%", "/%4", "/%zz", "/a%g0", "/?x=%", "/?x=%2", "/?%XX=1"])
    func invalidEscapesAreRejected(_ raw: String) {
        #expect(throws: HTTPParseError.self) { try HTTPTarget(raw) }
        do { _ = try HTTPTarget(raw) } catch {
            #expect(error.code == "invalid_percent_encoding")
            #expect(error.status.code == 400)
        }
    }

    @Test func encodedNulIsRejectedInPathAndQuery() {
        for raw in ["/a%00b", "/?x=%00"] {
            do { _ = try HTTPTarget(raw); Issue.record("accepted \(raw)") } catch {
                #expect(error.code == "encoded_nul")
                #expect(error.status.code == 400)
            }
        }
    }

    @Test func invalidUTF8IsRejected() {
        for raw in ["/%C3", "/%FF%FE", "/?q=%C3%28"] {
            do { _ = try HTTPTarget(raw); Issue.record("accepted \(raw)") } catch {
                #expect(error.code == "invalid_utf8")
            }
        }
    }

    @Test func invalidTargetsAreRejected() {
        for raw in ["", "relative/path", "http://", "ftp://x/y", "/a b", "/\u{7}", "/é"] {
            do { _ = try HTTPTarget(raw); Issue.record("accepted \(raw.debugDescription)") } catch {
                #expect(error.code == "invalid_target")
            }
        }
    }

    @Test func headParsesItsTarget() throws {
        let head = HTTPRequestHead(method: .GET, target: "/x%20y?k=v")
        #expect(try head.parsedTarget().path == "/x y")
    }
}
