import ParleyModel
import ParleyWireCore
import Testing

@Suite("Messages written straight to JSON bytes")
struct MessageJSONBytesTests {
    static let messages: [ChatMessage] = [
        ChatMessage(id: 1, roomID: "r", seq: 1, senderID: "alice", clientID: nil, parts: [], createdAt: 0, editedAt: nil, deletedAt: nil),
        ChatMessage(
            id: 9_223_372_036_854_775_807, roomID: "room-\u{e9}", seq: 42, senderID: "bob@x", clientID: "c-1",
            parts: [
                .text("quote \" backslash \\ newline \n tab \t bell \u{07} and \u{1F600}"), .attachment(id: "att_1"),
                .url("https://example.com/?a=1&b=\"2\"")
            ],
            createdAt: 1_700_000_000_123, editedAt: 1_700_000_001_000, deletedAt: nil,
            reactions: [ReactionCount(emoji: "\u{1F44D}", count: 3), ReactionCount(emoji: "x\"y", count: 1)]),
        ChatMessage(id: 7, roomID: "r", seq: 0, senderID: "eve", clientID: "", parts: [], createdAt: -5, editedAt: 3, deletedAt: 4),
        ChatMessage(
            id: 8, roomID: "r", seq: 9, senderID: "bob", parts: [.text("@alice \"yes\"")], createdAt: 1, parentID: 5,
            showInRoom: false, replyCount: 2, lastReplierIDs: ["carol", "b\"ob"],
            quoted: QuotedMessage(id: 5, senderID: "alice", parts: [.text("q \u{1F600}"), .url("https://x")]), mentions: ["alice"]),
        ChatMessage(
            id: 10, roomID: "r", seq: 11, senderID: "bob", parts: [.text("x")], createdAt: 1,
            quoted: QuotedMessage(id: 5, senderID: "alice", parts: [], isDeleted: true)),
        ChatMessage(
            id: 12, roomID: "r", seq: 12, senderID: "bob",
            parts: [
                .file(FilePart(attachmentID: "a/1", name: "R\u{e9}sum\u{e9} \"v2\".pdf", contentType: "application/pdf", size: 12_345)),
                .file(FilePart(attachmentID: "img", name: "cat.png", contentType: "image/png", size: 99, width: 640, height: 480))
            ], createdAt: 2)
    ]

    @Test func filePartsCarryTheirMetadataAndADownloadPath() throws {
        let part = try MessagePart(
            json: JSONParser.parse(
                #"{"type":"file","attachment_id":"a/1","name":"x.zip","content_type":"application/zip","size":7,"url":"ignored"}"#))
        #expect(part.file?.name == "x.zip" && part.file?.size == 7 && part.file?.contentType == "application/zip")
        #expect(part.file?.url == "/v1/attachments/a%2F1/content" && part.attachmentID == "a/1")
        #expect(part.file?.isImage == false && FilePart(attachmentID: "i", contentType: "image/png").isImage)
    }

    @Test func threadFieldsSurviveTheRoundTrip() throws {
        for message in Self.messages {
            var bytes: [UInt8] = []
            message.writeJSON(into: &bytes)
            #expect(try ChatMessage(json: JSONParser.parse(bytes)) == message)
        }
    }

    @Test func messageBytesEqualTheSerialisedTree() {
        for message in Self.messages {
            var bytes: [UInt8] = []
            message.writeJSON(into: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == JSONWriter.string(message.json))
            #expect((try? JSONParser.parse(bytes)) == message.json)
        }
    }

    @Test func historyPageBytesEqualTheSerialisedTree() {
        for hasMore in [false, true] {
            for count in 0...Self.messages.count {
                let page = Array(Self.messages.prefix(count))
                let tree: JSONValue = .object(["messages": .array(page.map(\.json)), "has_more": .bool(hasMore)])
                #expect(MessagePage(messages: page, hasMore: hasMore).jsonBytes == JSONWriter.serialize(tree))
            }
        }
    }
}
