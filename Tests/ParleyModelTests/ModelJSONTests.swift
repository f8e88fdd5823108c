import ParleyModel
import ParleyWireCore
import Testing

/// Every API value reads back what it writes, writes the API's exact bytes, and refuses
/// malformed input with a decoding error that names the value and the field.
@Suite("The API's values and their JSON")
struct ModelJSONTests {
    /// Writes `value` as text and reads it back the way a client would.
    func reread<T>(_ json: JSONValue, _ decode: (JSONValue) throws(ParleyError) -> T) throws -> T {
        try decode(try JSONParser.parse(JSONWriter.string(json)))
    }

    static let message = ChatMessage(
        id: 42, roomID: "r1", seq: 7, senderID: "alice", clientID: "c-1",
        parts: [.text("hi \"there\"\n"), .attachment(id: "att-1"), .url("https://example.com/?a=1")],
        createdAt: 1_700_000_000_123, editedAt: 1_700_000_000_500,
        reactions: [ReactionCount(emoji: "👍", count: 2)])
    static let room = ChatRoom(
        id: "r1", kind: .private, name: "Plans", customData: .object(["team": .string("blue")]),
        createdBy: "alice", lastSeq: 7, lastActivityAt: 9, memberCount: 2, createdAt: 3, updatedAt: 5)

    @Test func everyValueReadsBackWhatItWrites() throws {
        #expect(try reread(Self.message.json, ChatMessage.init(json:)) == Self.message)
        #expect(try reread(Self.room.json, ChatRoom.init(json:)) == Self.room)
        let direct = ChatRoom(id: "d", kind: .direct, directUserIDs: ["a", "b"], createdAt: 1)
        #expect(try reread(direct.json, ChatRoom.init(json:)) == direct)
        let user = ChatUser(id: "u", name: "Ü", avatarURL: "https://x/y.png", customData: .array([.int(1)]), createdAt: 1, updatedAt: 2)
        #expect(try reread(user.json, ChatUser.init(json:)) == user)
        let member = Membership(roomID: "r", userID: "u", role: .admin, joinedAt: 4, readSeq: 3, readAt: 5)
        #expect(try reread(member.json, Membership.init(json:)) == member)
        let cursor = ReadCursor(roomID: "r", userID: "u", seq: 3)
        #expect(try reread(cursor.json, ReadCursor.init(json:)) == cursor)
        let summary = RoomSummary(room: Self.room, role: .admin, readSeq: 6, unreadCount: 1, lastMessage: Self.message)
        #expect(try reread(summary.json, RoomSummary.init(json:)) == summary)
        let empty = RoomSummary(room: Self.room)
        #expect(try reread(empty.json, RoomSummary.init(json:)) == empty)
        let attachment = Attachment(
            id: "a", roomID: "r", uploaderID: "u", contentType: "image/png", size: 5_000_000_000,
            width: 640, height: 480, createdAt: 7, downloadURL: "/v1/attachments/a/content?sig=1",
            downloadURLExpiresAt: 99, thumbnailURL: "/v1/attachments/a/content?sig=1&thumb=1")
        #expect(try reread(attachment.json, Attachment.init(json:)) == attachment)
        guard case .object(let written) = attachment.json else { throw ParleyError(.decoding, "not an object") }
        #expect(written["thumbnail_url"] == .string("/v1/attachments/a/content?sig=1&thumb=1"))
        let device = DeviceRegistration(token: "deadbeef", userID: "u", platform: .apnsSandbox, updatedAt: 8)
        #expect(try reread(device.json, DeviceRegistration.init(json:)) == device)
        let presence = PresenceStatus(userID: "u", isOnline: false, lastSeenAt: 12)
        #expect(try reread(presence.json, PresenceStatus.init(json:)) == presence)
        let page = MessagePage(messages: [Self.message], hasMore: true)
        #expect(try reread(page.json, MessagePage.init(json:)) == page)
    }

    @Test func valuesWriteTheAPIsBytes() {
        // Member order and number forms are the REST API's (docs/openapi.json), byte for byte.
        let tombstone = ChatMessage(id: 1, roomID: "r", seq: 2, senderID: "s", parts: [], createdAt: 3, deletedAt: 4)
        #expect(
            JSONWriter.string(tombstone.json)
                == #"{"id":1,"room_id":"r","seq":2,"sender_id":"s","client_id":null,"parts":[],"created_at":3,"edited_at":null,"deleted_at":4,"deleted":true,"reactions":[],"parent_id":null,"show_in_room":true,"reply_count":0,"last_replier_ids":[],"quoted_message":null,"mentions":[]}"#
        )
        #expect(
            JSONWriter.string(Self.room.json)
                == #"{"id":"r1","kind":"private","name":"Plans","custom_data":{"team":"blue"},"created_by":"alice","direct_user_ids":[],"last_seq":7,"last_activity_at":9,"member_count":2,"created_at":3,"updated_at":5}"#
        )
        let member = Membership(roomID: "r", userID: "u", role: .member, joinedAt: 4, readSeq: 3)
        #expect(
            JSONWriter.string(member.json) == #"{"room_id":"r","user_id":"u","role":"member","joined_at":4,"read_seq":3,"read_at":null}"#)
        let plain = Attachment(id: "a", roomID: "r", uploaderID: "u", contentType: "text/plain", size: 1, createdAt: 2)
        #expect(
            JSONWriter.string(plain.json)
                == #"{"id":"a","room_id":"r","uploader_id":"u","content_type":"text/plain","size":1,"width":null,"height":null,"created_at":2}"#
        )
        var signed = plain
        signed.downloadURL = "/x"
        signed.downloadURLExpiresAt = 9
        #expect(JSONWriter.string(signed.json).hasSuffix(#""created_at":2,"download_url":"/x","download_url_expires_at":9}"#))
        #expect(JSONWriter.string(MessagePart.attachment(id: "a").json) == #"{"type":"attachment","attachment_id":"a"}"#)
    }

    @Test func aDeletedFlagWithoutATimeStillReadsAsDeleted() throws {
        let json = try JSONParser.parse(#"{"id":1,"room_id":"r","seq":1,"sender_id":"s","parts":[],"created_at":0,"deleted":true}"#)
        let message = try ChatMessage(json: json)
        #expect(message.isDeleted)
        var edited = message
        edited.isDeleted = false
        #expect(edited.deletedAt == nil)
    }

    /// Malformed input, the decoder, and a word its error must contain.
    static let malformed: [(String, String, String)] = [
        ("[1,2]", "message", "expected an object"),
        (#"{"room_id":"r","seq":1,"sender_id":"s","parts":[],"created_at":0}"#, "message", "id"),
        (#"{"id":"one","room_id":"r","seq":1,"sender_id":"s","parts":[],"created_at":0}"#, "message", "id"),
        (#"{"id":1,"room_id":"r","seq":1,"sender_id":"s","parts":{},"created_at":0}"#, "message", "parts"),
        (#"{"id":1,"room_id":"r","seq":1,"sender_id":"s","parts":[{"type":"poll"}],"created_at":0}"#, "message", "poll"),
        (#"{"id":1,"room_id":"r","seq":1,"sender_id":"s","parts":[{"type":"text"}],"created_at":0}"#, "message", "text"),
        (#"{"id":1,"room_id":"r","seq":1,"sender_id":"s","parts":[],"created_at":0,"edited_at":"soon"}"#, "message", "edited_at"),
        (#"{"id":1,"room_id":"r","seq":1,"sender_id":"s","parts":[],"created_at":0,"reactions":[{"emoji":"x"}]}"#, "message", "count"),
        (#"{"id":1,"room_id":"r","seq":1,"sender_id":"s","parts":[],"created_at":0,"deleted":"yes"}"#, "message", "deleted"),
        (#"{"id":"r","kind":"secret"}"#, "room", "secret"),
        (#"{"id":"r","kind":"direct","direct_user_ids":[1,2]}"#, "room", "direct_user_ids"),
        (#"{"id":"r","kind":"public","member_count":"two"}"#, "room", "member_count"),
        (#"{"room_id":"r","user_id":"u","role":"king"}"#, "membership", "king"),
        (#"{"room":{"id":"r","kind":"public"},"role":"member","last_message":{"id":1}}"#, "summary", "room_id"),
        (#"{"id":"a","room_id":"r","uploader_id":"u","content_type":"x/y","size":-1.5}"#, "attachment", "size"),
        (#"{"token":"t","user_id":"u","platform":"pager"}"#, "device", "pager"),
        (#"{"user_id":"u","online":1}"#, "presence", "online"),
        (#"{"messages":[{"id":1}],"has_more":false}"#, "page", "room_id")
    ]

    @Test(arguments: 0..<malformed.count)
    func malformedInputIsRefusedByName(_ index: Int) throws {
        let (text, kind, word) = Self.malformed[index]
        let json = try JSONParser.parse(text)
        do {
            switch kind {
            case "message": _ = try ChatMessage(json: json)
            case "room": _ = try ChatRoom(json: json)
            case "membership": _ = try Membership(json: json)
            case "summary": _ = try RoomSummary(json: json)
            case "attachment": _ = try Attachment(json: json)
            case "device": _ = try DeviceRegistration(json: json)
            case "presence": _ = try PresenceStatus(json: json)
            default: _ = try MessagePage(json: json)
            }
            Issue.record("\(text) was read as a \(kind)")
        } catch {
            #expect(error.code == .decoding)
            #expect(error.message.contains(word), "\(error.message)")
        }
    }
}
