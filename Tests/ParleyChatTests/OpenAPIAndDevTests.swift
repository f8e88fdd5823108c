import ParleyWire
import Testing

@testable import ParleyChat

#if canImport(Glibc)
import Glibc
#endif

@Suite("OpenAPI document and dev mode")
struct OpenAPIAndDevTests {
    /// docs/openapi.json, found from this file's path.
    static func documentOnDisk() throws -> [UInt8] {
        let testsDirectory = String(#filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast(3).joined(separator: "/"))
        let path = testsDirectory + "/docs/openapi.json"
        guard let file = fopen(path, "rb") else { throw ChatError(.notFound, "cannot open \(path)") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer.prefix(count)
        }
        return bytes
    }

    @Test func servedDocumentIsTheOneInTheRepository() async throws {
        var onDisk = try Self.documentOnDisk()
        while onDisk.last == UInt8(ascii: "\n") { onDisk.removeLast() }
        try await ChatHarness.with { h in
            let served = await h.call(.GET, "/v1/openapi.json")
            #expect(served.status == 200 && served.headers.first("Content-Type") == "application/json")
            #expect(served.body == onDisk, "the build embeds docs/openapi.json (OpenAPIDocumentPlugin)")
            #expect(served["openapi"]?.stringValue == "3.1.0")
        }
    }

    @Test func everyRouteIsDocumentedAndNothingElse() throws {
        let document = try JSONParser.parse(Self.documentOnDisk())
        let paths = try #require(document["paths"]?.objectValue)
        var documented: Set<String> = []
        for (path, item) in paths {
            for (method, _) in item.objectValue ?? JSONObject() where method != "parameters" {
                documented.insert("\(method.uppercased()) \(path)")
            }
        }
        let routed = Set(ChatService.routeTable(devMode: true).map { "\($0.method) \($0.path)" })
        #expect(routed == documented)
    }

    @Test func onlyTheFileRoutesDoBlockingIOOffTheEventLoops() {
        let blocking = ChatService.routeDefinitions(devMode: true).filter(\.blocks).map { "\($0.method.rawValue) \($0.path)" }
        #expect(
            Set(blocking) == [
                "POST /v1/rooms/{room_id}/attachments", "GET /v1/attachments/{attachment_id}",
                "DELETE /v1/attachments/{attachment_id}", "GET /v1/attachments/{attachment_id}/content",
                "POST /v1/users/{user_id}/erase"
            ])
    }

    @Test func everyErrorCodeIsDocumentedUnderItsStatus() throws {
        let document = try JSONParser.parse(Self.documentOnDisk())
        let schema = try #require(
            document["components"]?["schemas"]?["Error"]?["properties"]?["error"]?["properties"]?["code"]?["enum"]?.arrayValue)
        #expect(Set(schema.compactMap(\.stringValue)) == Set(ChatErrorCode.allCases.map(\.rawValue)))
        let responses = try #require(document["components"]?["responses"]?.objectValue)
        for code in ChatErrorCode.allCases {
            let description = responses["E\(code.status.code)"]?["description"]?.stringValue ?? ""
            #expect(description.contains("`\(code.rawValue)`"), "\(code.rawValue) is not listed under \(code.status.code)")
        }
    }

    @Test func devEndpointsSignInByName() async throws {
        try await ChatHarness.with(devMode: true) { h in
            let created = await h.call(.POST, "/v1/dev/users", json: .object(["name": .string("Ada Lovelace")]))
            #expect(created.status == 201 && created["id"]?.stringValue == "ada-lovelace")
            let again = await h.call(.POST, "/v1/dev/users", json: .object(["name": .string("Ada Lovelace")]))
            #expect(again.status == 200 && again["id"] == created["id"])
            let minted = await h.call(.POST, "/v1/dev/token", json: .object(["user_id": .string("ada-lovelace")]))
            let token = try #require(minted["token"]?.stringValue)
            #expect(minted["app_id"]?.stringValue == "1")
            #expect(await h.call(.GET, "/v1/me", as: .bearer(token))["name"]?.stringValue == "Ada Lovelace")
            #expect(await h.call(.POST, "/v1/dev/token", json: .object(["user_id": .string("nobody")])).errorCode == "user_not_found")
            let inB = await h.call(.POST, "/v1/dev/users", json: .object(["name": .string("Bea")]), headers: [("X-Parley-App", "2")])
            #expect(inB.status == 201)
            #expect(await h.call(.GET, "/v1/users/bea", as: .app(ChatHarness.appA)).errorCode == "user_not_found")
            #expect(
                await h.call(.POST, "/v1/dev/users", json: .object(["name": .string("x")]), headers: [("X-Parley-App", "9")]).errorCode
                    == "unknown_app")
        }
        try await ChatHarness.with(devMode: false) { h in
            let off = await h.call(.POST, "/v1/dev/token", json: .object(["user_id": .string("a")]))
            #expect(off.status == 404 && off.errorCode == "not_found")
        }
    }
}
