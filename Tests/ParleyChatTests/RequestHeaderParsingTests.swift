import ParleyWire
import Testing

@testable import ParleyChat

/// The Content-Type and Authorization headers as clients really send them: any case,
/// parameters, stray spaces — and what is refused.
@Suite("Request header parsing")
struct RequestHeaderParsingTests {
    private func request(contentType: String?) throws -> ChatRequest {
        var headers = HTTPHeaders()
        if let contentType { headers.add("Content-Type", contentType) }
        return try ChatRequest(method: .POST, target: "/v1/x", headers: headers, body: [])
    }

    @Test(arguments: [
        ("application/json", "application/json"),
        ("Application/JSON; charset=utf-8", "application/json"),
        ("  application/json  ;charset=UTF-8", "application/json"),
        ("\tapplication/merge-patch+json\t", "application/merge-patch+json"),
        ("TEXT/Plain", "text/plain")
    ])
    func mediaTypeIsTheLowerCasedEssence(_ header: String, _ expected: String) throws {
        #expect(try request(contentType: header).mediaType == expected)
    }

    @Test(arguments: ["", "   ", ";charset=utf-8", " ; x=y"])
    func anEmptyMediaTypeCountsAsNone(_ header: String) throws {
        #expect(try request(contentType: header).mediaType == nil)
    }

    @Test func noContentTypeIsNone() throws {
        #expect(try request(contentType: nil).mediaType == nil)
    }

    @Test func nonJSONBodiesAreRefusedWith415() async throws {
        try await ChatHarness.with { h in
            await h.createUsers("alice")
            let reply = await h.call(.GET, "/v1/me", as: .user("alice", app: ChatHarness.appA))
            #expect(reply.status == 200)
            for type in ["text/plain", "Text/Plain; charset=utf-8", "application/xml"] {
                let refused = await h.call(
                    .POST, "/v1/rooms", as: .user("alice", app: ChatHarness.appA),
                    body: Array(#"{"name":"r"}"#.utf8), headers: [("Content-Type", type)])
                #expect(refused.status == 415, "\(type)")
                #expect(refused.errorCode == "unsupported_media_type", "\(type)")
            }
            let accepted = await h.call(
                .POST, "/v1/rooms", as: .user("alice", app: ChatHarness.appA),
                body: Array(#"{"name":"r","kind":"public"}"#.utf8),
                headers: [("Content-Type", "Application/JSON; charset=UTF-8")])
            #expect(accepted.status == 201, "\(accepted.json)")
        }
    }

    @Test func theAuthorizationSchemeIsCaseInsensitiveAndTheTokenTrimmed() async throws {
        try await ChatHarness.with { h in
            await h.createUsers("alice")
            let token = h.token("alice")
            for header in ["Bearer \(token)", "bearer \(token)", "BEARER \(token)  ", "bEaReR \t\(token)"] {
                let reply = await h.call(.GET, "/v1/me", headers: [("Authorization", header)])
                #expect(reply.status == 200, "\(header.prefix(12)): \(reply.json)")
            }
            for header in ["Bearer", "Bearer ", "Bearer\(token)", "Beare \(token)", "Token \(token)", "Bearerx \(token)"] {
                let reply = await h.call(.GET, "/v1/me", headers: [("Authorization", header)])
                #expect(reply.status == 401, "\(header.prefix(12))")
            }
        }
    }
}
