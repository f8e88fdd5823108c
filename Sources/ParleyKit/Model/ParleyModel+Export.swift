// The chat API's values (`ChatMessage`, `ChatRoom`, `ParleyError`…) live in ParleyModel, which
// the server shares; every ParleyKit user sees them as ParleyKit's own.
@_exported import ParleyModel
