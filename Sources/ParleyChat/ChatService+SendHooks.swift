import ParleyStore
import ParleyWire

/// `message.created` for the chat webhooks, written by the send's own transaction when the
/// store has the outbox (docs/webhooks.md, "Durability").
extension ChatService {
    /// Builds the new message's outbox rows inside the store's write, from the stored message
    /// and with the same code the published event goes through; nil when no endpoint of the app
    /// takes `message.created` or there is no outbox (then `publish` records hooks as before).
    func sendHookEvents(_ context: ChatContext) -> HookEventBuilder? {
        guard hooks.outbox != nil, context.app.chatHooks.webhooks.contains(where: { $0.accepts("message.created") }) else {
            return nil
        }
        let app = context.app, now = clock.now()
        return { [self] message in
            chatHookCopies(app, kind: "message.created", data: messageEventData(message), at: now).map {
                HookOutboxEvent(appID: $0.target.appID, url: $0.target.url.description, event: JSONWriter.string($0.event))
            }
        }
    }
}
