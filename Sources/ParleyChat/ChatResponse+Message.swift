import ParleyStore
import ParleyWire

extension ChatResponse {
    /// One message as the JSON answer, written straight to bytes: the same bytes as serialising
    /// `message.json`, without building and walking the tree of values (a send pays for it).
    static func message(_ message: Message, status: HTTPStatus = .ok) -> ChatResponse {
        var body: [UInt8] = []
        body.reserveCapacity(512)
        message.writeJSON(into: &body)
        return ChatResponse(status: status, headers: ["Content-Type": "application/json"], body: body)
    }
}
