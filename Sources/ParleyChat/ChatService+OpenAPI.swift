import ParleyWire

/// The API's own description, served at `GET /v1/openapi.json`.
extension ChatService {
    func openAPIDocument() -> ChatResponse {
        ChatResponse(status: .ok, headers: ["Content-Type": "application/json"], body: Array(OpenAPIDocument.json.utf8))
    }
}
