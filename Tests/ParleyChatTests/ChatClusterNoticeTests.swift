import Testing

@testable import ParleyChat

/// The chat's notices on the cluster bus survive encoding; unknown kinds are ignored.
@Suite struct ChatClusterNoticeTests {
    @Test func noticesRoundTrip() {
        let notices: [ChatClusterNotice] = [
            .membershipsChanged,
            .accessEnded(AccessEnding(app: "1", room: "r", user: "u", reason: .memberRemoved)),
            .accessEnded(AccessEnding(app: "1", room: nil, user: "u", reason: .userDeleted)),
            .accessEnded(AccessEnding(app: "1", room: "r", user: nil, reason: .roomDeleted)),
            .userDeleted(app: "1", user: "u")
        ]
        for notice in notices {
            #expect(ChatClusterNotice(decoding: notice.encoded) == notice)
        }
        #expect(ChatClusterNotice(decoding: Array(#"{"kind":"from_the_future"}"#.utf8)) == nil)
        #expect(ChatClusterNotice(decoding: Array("junk".utf8)) == nil)
    }
}
