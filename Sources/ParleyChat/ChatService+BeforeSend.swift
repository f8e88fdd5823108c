import ParleyChannels
import ParleyStore
import ParleyWire

/// The before-send hook: the app's endpoint sees each message (send and edit) before it is
/// queued for the store, and allows, rejects or rewrites it (docs/webhooks.md).
extension ChatService {
    /// The parts to store: `parts` itself, the endpoint's rewrite, or a thrown refusal
    /// (`message_rejected` 422; `hook_unavailable` 503 when the endpoint failed and the app fails closed).
    func beforeSend(
        _ context: ChatContext, action: String, room: String, sender: String, messageID: Int64?, parts: [MessagePart]
    ) async throws(ChatError) -> [MessagePart] {
        guard let hook = context.app.chatHooks.beforeSend else { return parts }
        var payload: JSONObject = [
            "type": .string(action), "app_id": .string(context.appID), "room_id": .string(room), "user_id": .string(sender)
        ]
        if let messageID { payload["message_id"] = .int64(messageID) }
        payload["message"] = .object(["parts": .array(parts.map(\.json))])
        let now = clock.now()
        payload["time_ms"] = .number(String(now))
        let body = JSONWriter.serialize(.object(payload))
        let request = ChatHookRequest(
            url: hook.url,
            headers: ChatHookSignature.headers(key: context.app.key, secret: context.app.secret, timestamp: now / 1000, body: body),
            body: body, timeoutMilliseconds: hook.timeoutMilliseconds)
        let poster = hooks.poster
        let started = ContinuousClock.now
        let answer: ChatHookAnswer? = await withCheckedContinuation { continuation in
            poster.post(request) { continuation.resume(returning: $0) }
        }
        let verdict = BeforeSendVerdict(answer)
        hooks.statistics.beforeSend(verdict.metricsVerdict(answered: answer != nil), since: started)
        switch verdict {
        case .allow:
            return parts
        case .reject(let reason):
            throw ChatError(.messageRejected, reason)
        case .rewrite(let object):
            do throws(ChatError) {
                return try JSONBody(object: object).parts()
            } catch {
                return try failedHook(hook, "the before-send hook's rewrite is not valid message parts: \(error.message)", parts)
            }
        case .failed(let why):
            return try failedHook(hook, why, parts)
        }
    }

    private func failedHook(_ hook: BeforeSendConfig, _ why: String, _ parts: [MessagePart]) throws(ChatError) -> [MessagePart] {
        guard hook.onFailure == .reject else { return parts }
        throw ChatError(.hookUnavailable, "the message was not stored: \(why)")
    }
}
