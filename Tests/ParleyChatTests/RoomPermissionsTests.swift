import Foundation
import ParleyChannels
import Testing

@testable import ParleyChat
@testable import ParleyStore

@Suite("Room permissions")
struct RoomPermissionsTests {
    /// The table as docs/moderation.md states it: which roles may do each action (no target).
    static let table: [RoomAction: Set<MemberRole>] = [
        .read: [.owner, .admin, .moderator, .member],
        .sendMessage: [.owner, .admin, .moderator, .member],
        .editOwnMessage: [.owner, .admin, .moderator, .member],
        .deleteOwnMessage: [.owner, .admin, .moderator, .member],
        .react: [.owner, .admin, .moderator, .member],
        .flagMessage: [.owner, .admin, .moderator, .member],
        .bypassSlowMode: [.owner, .admin, .moderator],
        .deleteAnyMessage: [.owner, .admin, .moderator],
        .mute: [.owner, .admin, .moderator],
        .unmute: [.owner, .admin, .moderator],
        .kick: [.owner, .admin, .moderator],
        .ban: [.owner, .admin, .moderator],
        .unban: [.owner, .admin, .moderator],
        .setSlowMode: [.owner, .admin, .moderator],
        .reviewFlags: [.owner, .admin, .moderator],
        .readModeration: [.owner, .admin, .moderator],
        .readAudit: [.owner, .admin],
        .addMember: [.owner, .admin],
        .removeMember: [.owner, .admin],
        .changeRole: [.owner, .admin],
        .updateRoom: [.owner, .admin],
        .deleteRoom: [.owner, .admin]
    ]

    /// Whom each role may mute, unmute, kick, ban or unban.
    static let moderates: [MemberRole: Set<MemberRole>] = [
        .owner: [.admin, .moderator, .member], .admin: [.moderator, .member], .moderator: [.member], .member: []
    ]

    @Test func everyActionByEveryRoleWithoutATarget() {
        #expect(Set(Self.table.keys) == Set(RoomAction.allCases), "the table covers every action")
        for action in RoomAction.allCases {
            for role in MemberRole.allCases {
                let allowed = Self.table[action]?.contains(role) ?? false
                let decision = RoomPermissions.decide(action, actor: role)
                if allowed {
                    #expect(decision == .allowed, "\(role) \(action)")
                } else {
                    let code: ChatErrorCode = Self.table[action] == [.owner, .admin] ? .notRoomAdmin : .notRoomModerator
                    #expect(decision == .denied(code), "\(role) \(action)")
                }
            }
            #expect(RoomPermissions.decide(action, actor: nil) == .allowed, "app-level calls may \(action)")
        }
    }

    @Test func moderationNeedsAHigherRoleThanTheTarget() {
        for action in [RoomAction.mute, .unmute, .kick, .ban, .unban] {
            for actor in MemberRole.allCases {
                for target in MemberRole.allCases {
                    let expected = Self.moderates[actor]?.contains(target) ?? false
                    #expect(
                        (RoomPermissions.decide(action, actor: actor, target: target) == .allowed) == expected,
                        "\(actor) \(action) \(target)")
                }
                #expect(
                    (RoomPermissions.decide(action, actor: actor, target: nil) == .allowed)
                        == (Self.moderates[actor]?.contains(.member) ?? false),
                    "a non-member target ranks as a member")
                #expect(RoomPermissions.decide(action, actor: nil, target: .owner) == .allowed)
            }
        }
        #expect(RoomPermissions.decide(.ban, actor: .admin, target: .admin) == .denied(.targetOutranks))
        #expect(RoomPermissions.decide(.ban, actor: .member, target: .member) == .denied(.notRoomModerator))
    }

    @Test func rolesAreManagedUpToOnesOwn() {
        for actor in [MemberRole.owner, .admin] {
            for target in MemberRole.allCases {
                #expect((RoomPermissions.decide(.removeMember, actor: actor, target: target) == .allowed) == (target.rank <= actor.rank))
                for grant in MemberRole.allCases {
                    let expected = target.rank <= actor.rank && grant.rank <= actor.rank
                    #expect((RoomPermissions.decide(.changeRole, actor: actor, target: target, grant: grant) == .allowed) == expected)
                }
            }
        }
        #expect(RoomPermissions.decide(.changeRole, actor: .admin, target: .member, grant: .owner) == .denied(.targetOutranks))
        #expect(
            RoomPermissions.decide(.changeRole, actor: .admin, target: .admin, grant: .member) == .allowed,
            "admins manage admins, as before")
        #expect(RoomPermissions.decide(.changeRole, actor: .moderator, target: .member, grant: .member) == .denied(.notRoomAdmin))
    }

    @Test func theDocumentedTableIsTheEnforcedOne() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("docs/moderation.md"), encoding: .utf8)
        var documented: [String: [String]] = [:]
        for line in page.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 5 else { continue }
            documented[cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = Array(cells[1...4])
        }
        for action in RoomAction.allCases {
            let row = try #require(documented[action.rawValue], "docs/moderation.md has no row for \(action.rawValue)")
            for (index, role) in [MemberRole.owner, .admin, .moderator, .member].enumerated() {
                let allowed = RoomPermissions.decide(action, actor: role) == .allowed
                #expect(row[index].hasPrefix("yes") == allowed, "\(action.rawValue) for \(role.rawValue): the page says \(row[index])")
            }
        }
    }

    @Test func blockedWordsRejectOrMaskWholeWordsIgnoringCase() throws {
        var rules = AppModeration()
        rules.blockedWords = ["darn", "heck"]
        #expect(try BlockedWords.apply([.text("darning is fine")], rules: rules) == [.text("darning is fine")])
        #expect(throws: ChatError.self) { try BlockedWords.apply([.text("oh DARN it")], rules: rules) }
        rules.mode = .mask
        #expect(
            try BlockedWords.apply([.text("Darn, what the heck!"), .url("https://x/darn")], rules: rules)
                == [.text("****, what the ****!"), .url("https://x/darn")])
        #expect(try BlockedWords.apply([.text("héck darn")], rules: rules) == [.text("héck ****")])
    }
}
