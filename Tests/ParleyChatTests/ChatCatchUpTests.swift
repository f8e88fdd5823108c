import ParleyChannels
import ParleyWire
import Testing

@testable import ParleyChat

/// The catch-up ledger: what a node delivered of a room, what it must deliver after a bus
/// outage, each message once and in seq order.
@Suite struct ChatCatchUpTests {
    let room = ChatCatchUp.Room(app: "1", room: "r")

    func event(_ seq: Int64) -> HubEvent {
        HubEvent(channel: "private-room-r", event: "message.created", data: .int64(seq), frame: Array("\(seq)".utf8), excluding: nil)
    }

    func seqs(_ events: [HubEvent]) -> [Int64] { events.map { Int64(String(decoding: $0.frame, as: UTF8.self))! } }

    func read(_ list: ClosedRange<Int64>) -> [ChatCatchUp.Delivery] { list.map { ChatCatchUp.Delivery(seq: $0, event: event($0)) } }

    @Test func missedMessagesAreDeliveredOnceInOrderAndTheirBusCopiesDropped() {
        var ledger = ChatCatchUp()
        let r1 = ledger.received(room, seq: 1, event: event(1))
        #expect(r1)
        ledger.published(room, seq: 2)
        let r2 = ledger.received(room, seq: 3, event: event(3))
        #expect(r2)
        // The outage: 4 and 6 were sent elsewhere, 5 here.
        ledger.published(room, seq: 5)
        let floors = ledger.begin([room])
        #expect(floors[room] == .some(3))
        // A message sent right after the bus came back waits for the missed ones.
        let r3 = ledger.received(room, seq: 7, event: event(7))
        #expect(!r3)
        let r4 = ledger.finish(room, read: read(4...6))
        #expect(seqs(r4) == [4, 6, 7])
        // 6's bus copy, late, is not delivered twice; the next messages flow.
        let r5 = ledger.received(room, seq: 6, event: event(6))
        #expect(!r5)
        let r6 = ledger.received(room, seq: 8, event: event(8))
        #expect(r6)
    }

    @Test func aRoomNeverHeardOfIsReadBackFromWhatTheStoreHas() {
        var ledger = ChatCatchUp()
        let floors = ledger.begin([room])
        #expect(floors[room] == .some(nil))
        let r7 = ledger.finish(room, read: read(10...11))
        #expect(seqs(r7) == [10, 11])
        ledger.published(room, seq: 12)
        let r8 = ledger.begin([room])
        #expect(r8[room] == .some(12))
        let r9 = ledger.finish(room, read: [])
        #expect(r9.isEmpty)
    }

    @Test func messagesFromTheBusPassWhenNoCatchUpIsUnderWay() {
        var ledger = ChatCatchUp()
        // Two nodes sending at once: 4 arrives after 5 was published here; both are delivered.
        ledger.published(room, seq: 3)
        ledger.published(room, seq: 5)
        let r10 = ledger.received(room, seq: 4, event: event(4))
        #expect(r10)
        let r11 = ledger.begin([room])
        #expect(r11[room] == .some(5))
    }

    @Test func theSeqIsReadFromTheFrameAsSubscribersGetIt() {
        let data: JSONValue = .object(["room_id": .string("r"), "seq": .int64(42)])
        let frame = PusherFrame.channelEvent(event: "message.created", channel: "private-room-r", data: data)
        #expect(ChatService.seq(inFrame: frame) == 42)
        #expect(ChatService.seq(inFrame: Array(#"{"event":"x","data":"{\"seq\":7}"}"#.utf8)) == 7)
    }
}
