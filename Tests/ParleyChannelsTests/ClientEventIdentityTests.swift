import ParleyWire
import Testing

@testable import ParleyChannels

/// Client events carry only identities the server verified: the signed-in user's id is stamped
/// as the event's top-level `user_id`, and data naming someone else is refused with 4301.
@Suite struct ClientEventIdentityTests {
    let app = testApp()
    let socket = PusherSocketID("1234.1234")!

    /// A connection subscribed to `private-a`, signed in as `user` when one is given.
    func connection(signedInAs user: String?) -> PusherConnection {
        var c = PusherConnection(app: app, socketID: socket, activityTimeout: 120, pongTimeout: 30, now: 0)
        if let user {
            let userData = "{\"id\":\"\(user)\"}"
            let auth = PusherSignature.userAuth(key: app.key, secret: app.secret, socketID: socket.rawValue, userData: userData)
            _ = c.receiveText(
                PusherMessage(
                    event: "pusher:signin",
                    data: .object(["auth": .string(auth), "user_data": .string(userData)])
                ).serialized(), now: 0)
        }
        let auth = PusherSignature.channelAuth(key: app.key, secret: app.secret, socketID: socket.rawValue, channel: "private-a")
        _ = c.receiveText(subscribeMessage("private-a", auth: auth), now: 0)
        _ = c.subscriptionResult(channel: "private-a", .succeeded(members: nil, cache: .none))
        return c
    }

    func send(_ c: inout PusherConnection, data: String) -> [PusherConnectionAction] {
        c.receiveText(bytes("{\"event\":\"client-typing\",\"channel\":\"private-a\",\"data\":\(data)}"), now: 1)
    }

    @Test func signedInSendersAreStampedOnPrivateChannels() throws {
        var c = connection(signedInAs: "eve")
        let actions = send(&c, data: #"{"typing":true}"#)
        guard case .clientEvent(let event)? = actions.first else { Issue.record("not accepted: \(actions)"); return }
        #expect(event.userID == "eve")
        #expect(try PusherMessage.parse(event.frame).userID == "eve")
    }

    @Test func dataMayNameTheVerifiedSender() {
        var c = connection(signedInAs: "eve")
        let actions = send(&c, data: #"{"user_id":"eve","sender_id":"eve"}"#)
        #expect(actions.contains { if case .clientEvent(let e) = $0 { e.userID == "eve" } else { false } })
    }

    @Test func dataNamingAnotherUserIsRefused() {
        var c = connection(signedInAs: "eve")
        for data in [#"{"user_id":"alice"}"#, #"{"sender_id":"alice"}"#, #"{"user_id":7}"#, #"{"user_id":{"id":"eve"}}"#] {
            let actions = send(&c, data: data)
            #expect(!actions.contains { if case .clientEvent = $0 { true } else { false } }, "\(data)")
            #expect(sent(actions).first?.data?["code"] == .int(4301), "\(data)")
        }
        #expect(!c.isClosed)
    }

    @Test func anonymousSendersCannotNameAnyone() {
        var c = connection(signedInAs: nil)
        #expect(sent(send(&c, data: #"{"user_id":"alice"}"#)).first?.data?["code"] == .int(4301))
        // Without an identity claim the event still goes out, with no user_id (plain Pusher behaviour).
        let actions = send(&c, data: #"{"typing":true,"user_id":null}"#)
        guard case .clientEvent(let event)? = actions.first else { Issue.record("not accepted: \(actions)"); return }
        #expect(event.userID == nil)
    }
}
