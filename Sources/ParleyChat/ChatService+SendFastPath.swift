import ParleyStore

/// What a plain send can decide without suspending. Each async step of a send (moderation, the
/// before-send hook, file parts) costs a task switch and a frame even when it has nothing to do,
/// so `sendMessage` asks these first and awaits a step only when it has work.
extension ChatService {
    /// Whether `admitModeratedSend` would admit the send without a slow-mode pace, decided from
    /// the cached moderation state alone: app-level sends, and members who are not muted in a
    /// cached room without slow mode that is not a direct room. False: run `admitModeratedSend`.
    func admitsSendWithoutWaiting(_ context: ChatContext, room: String, sender: String) -> Bool {
        if context.isApp { return true }
        guard let state = moderationCache.lookup(ModerationCache.Key(app: context.appID, room: room)).moderation else {
            return false
        }
        return state.slowModeSeconds <= 0 && state.directUserIDs.count != 2
            && state.active(.mute, user: sender, at: clock.now()) == nil
    }

    /// Whether the app has a before-send hook for `beforeSend` to call.
    func hasBeforeSendHook(_ context: ChatContext) -> Bool {
        context.app.chatHooks.beforeSend != nil
    }

    /// Whether `parts` has a file part for `resolvingFiles` to fill in.
    static func hasFileParts(_ parts: [MessagePart]) -> Bool {
        parts.contains { $0.file != nil }
    }
}
