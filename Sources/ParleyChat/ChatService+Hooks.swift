import ParleyChannels
import ParleyStore
import ParleyWire

/// Chat webhooks and the notification hook: both only enqueue on the request's path; the
/// dispatcher delivers in the background (docs/webhooks.md).
extension ChatService {
    /// Records the chat webhook events that one call's realtime events stand for: in the
    /// outbox, awaited, when the store has one (so they are durable before the call is
    /// answered); nothing at all when the app has no chat webhooks.
    func deliverChatHooks(_ context: ChatContext, _ events: [ChatEvent]) async {
        guard !context.app.chatHooks.webhooks.isEmpty else { return }
        let items = ChatHookEvents.translate(events)
        guard !items.isEmpty else { return }
        let now = clock.now()
        var copies: [HookCopy] = []
        for item in items { copies += chatHookCopies(context.app, kind: item.kind, data: item.data, at: now) }
        await record(copies, room: items.first?.data.objectValue?["room_id"]?.stringValue)
    }

    /// The hook point for events no realtime event stands for: moderation calls it with
    /// `user.flagged` (data: the flag, with `room_id`, `message_id`, `user_id`, `reason`) when a
    /// message or user is flagged for review.
    func deliverChatHookEvent(_ context: ChatContext, kind: String, data: JSONValue) async {
        let copies = chatHookCopies(context.app, kind: kind, data: data, at: clock.now())
        await record(copies, room: data.objectValue?["room_id"]?.stringValue)
    }

    /// One event for one endpoint.
    struct HookCopy: Sendable {
        var target: ChatHookQueue.Target
        var event: JSONValue
    }

    func chatHookCopies(_ app: AppConfig, kind: String, data: JSONValue, at now: Int64) -> [HookCopy] {
        var json: JSONValue?
        var copies: [HookCopy] = []
        for endpoint in app.chatHooks.webhooks where endpoint.accepts(kind) {
            // One id per event, the same in every endpoint's copy and every retry.
            let event = json ?? hooks.eventJSON(kind: kind, data: data, at: now)
            json = event
            copies.append(
                HookCopy(target: ChatHookQueue.Target(appID: app.id, key: app.key, secret: app.secret, url: endpoint.url), event: event))
        }
        return copies
    }

    /// Writes events to the outbox, or queues them in memory without one (or when the write
    /// failed: then they are at least sent while this node runs).
    func record(_ copies: [HookCopy], room: String?) async {
        guard !copies.isEmpty else { return }
        if let outbox = hooks.outbox {
            let rows = copies.map {
                HookOutboxEvent(appID: $0.target.appID, url: $0.target.url.description, event: JSONWriter.string($0.event))
            }
            do {
                try await outbox.add(rows, room: room)
                return
            } catch {}
        }
        for copy in copies { hooks.dispatcher.enqueue(copy.event, to: copy.target) }
    }

    /// Starts working out which members need a notification for a new message; returns at once.
    func notifyAwayMembers(_ context: ChatContext, _ message: Message) {
        guard let hook = context.app.chatHooks.notifications else { return }
        Task { await notifyAway(context, hook, message) }
    }

    /// `notification.needed` for each member other than the sender who has no realtime
    /// connection on any node, whose setting asks for this message, and who was not notified
    /// about the room within the quiet period.
    private func notifyAway(_ context: ChatContext, _ hook: NotificationHookConfig, _ message: Message) async {
        let app = context.appID, room = message.roomID
        let away = await memberIDs(context, room: room).filter { user in
            user != message.senderID && !presenceStatus(app: app, user: user).online
        }
        guard !away.isEmpty else { return }
        let levels = (try? await (store as? any NotificationSettingsStore)?.notificationLevels(app: app, room: room)) ?? [:]
        let now = clock.now(), quiet = Int64(hook.quietPeriodMilliseconds)
        let wanted = away.filter { user in
            switch levels[user] ?? .all {
            case .none: false
            case .mentions: message.mentions.contains(user)
            case .all: true
            }
        }
        let admitted = await claimQuietPeriods(app: app, room: room, users: wanted, now: now, quiet: quiet)
        var events: [JSONValue] = []
        for user in admitted {
            guard let summary = try? await store.roomSummary(app: app, room: room, user: user) else { continue }
            let data: JSONValue = .object([
                "room_id": .string(room), "user_id": .string(user), "unread_count": .int(summary.unreadCount),
                "unread_mentions": .int(summary.unreadMentions), "mentioned": .bool(message.mentions.contains(user)),
                "message": message.json
            ])
            events.append(hooks.eventJSON(kind: "notification.needed", data: data, at: now))
        }
        // One message's notifications are recorded together, so they travel in one batch.
        let target = ChatHookQueue.Target(appID: app, key: context.app.key, secret: context.app.secret, url: hook.url)
        hooks.statistics.notificationsNeeded(events.count)
        await record(events.map { HookCopy(target: target, event: $0) }, room: room)
    }

    /// The members of `users` whose quiet period has passed, each starting a new one: claimed
    /// in the store, so that nodes sharing it notify a member once per period between them;
    /// on this node's gate only when the store has no such claim or the claim failed.
    private func claimQuietPeriods(app: String, room: String, users: [String], now: Int64, quiet: Int64) async -> [String] {
        guard !users.isEmpty else { return [] }
        if let settings = store as? any NotificationSettingsStore,
            let claimed = try? await settings.claimNotificationPeriods(app: app, room: room, users: users, now: now, until: now + quiet)
        {
            return users.filter(Set(claimed).contains)
        }
        return hooks.gate.withLock { gate in
            users.filter { user in gate.admit(NotificationGate.Key(app: app, room: room, user: user), now: now, quiet: quiet) }
        }
    }

    /// The room's member ids: from the member cache, else read in pages (up to 100,000).
    private func memberIDs(_ context: ChatContext, room: String) async -> [String] {
        if case .all(let members)? = await knownMembers(context, room: room) { return members.ids }
        var ids: [String] = []
        var after: String?
        while ids.count < 100_000 {
            guard let page = try? await store.members(app: context.appID, room: room, after: after, limit: 1000), !page.isEmpty
            else { break }
            ids += page.map(\.userID)
            after = page.last?.userID
            if page.count < 1000 { break }
        }
        return ids
    }
}
