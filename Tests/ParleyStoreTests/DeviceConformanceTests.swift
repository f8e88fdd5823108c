import Testing

@testable import ParleyStore

@Suite("Conformance: push device tokens")
struct DeviceConformanceTests {
    @Test(arguments: TestEngine.available)
    func tokensAreStoredPerUserAndMoveWithTheDevice(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            for id in ["alice", "bob"] { try await store.makeUser("a", id) }
            try await store.makeUser("b", "alice")
            _ = try await store.registerDevice(app: "a", user: "alice", token: "phone", platform: "apns")
            _ = try await store.registerDevice(app: "a", user: "alice", token: "tablet", platform: "fcm")
            _ = try await store.registerDevice(app: "b", user: "alice", token: "phone", platform: "apns")
            #expect(try await store.devices(app: "a", user: "alice").map(\.token) == ["phone", "tablet"])
            #expect(try await store.devices(app: "a", user: "bob").isEmpty)

            // Bob signs in on Alice's phone: the token is his now, in that app only.
            let moved = try await store.registerDevice(app: "a", user: "bob", token: "phone", platform: "apns_sandbox")
            #expect(moved.userID == "bob" && moved.platform == .apnsSandbox)
            #expect(try await store.devices(app: "a", user: "alice").map(\.token) == ["tablet"])
            #expect(try await store.devices(app: "a", user: "bob").map(\.token) == ["phone"])
            #expect(try await store.devices(app: "b", user: "alice").map(\.userID) == ["alice"])

            #expect(try await !store.removeDevice(app: "a", user: "alice", token: "phone"), "not Alice's any more")
            #expect(try await store.removeDevice(app: "a", user: "alice", token: "tablet"))
            #expect(try await store.devices(app: "a", user: "alice").isEmpty)

            await expectStoreError(.notFound) { try await store.registerDevice(app: "a", user: "nobody", token: "t", platform: "fcm") }
            await expectStoreError(.notFound) { try await store.devices(app: "a", user: "nobody") }
            await expectStoreError(.invalidArgument) { try await store.registerDevice(app: "a", user: "bob", token: "", platform: "fcm") }
        }
    }

    @Test(arguments: TestEngine.available)
    func deletingAUserForgetsTheirTokens(_ engine: TestEngine) async throws {
        try await withStore(engine) { store in
            try await store.makeUser("a", "alice")
            _ = try await store.registerDevice(app: "a", user: "alice", token: "phone", platform: "apns")
            _ = try await store.deleteUser(app: "a", id: "alice")
            try await store.makeUser("a", "alice")
            #expect(try await store.devices(app: "a", user: "alice").isEmpty, "a new user under the old id gets no old device")
        }
    }
}
