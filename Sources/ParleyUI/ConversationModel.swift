import ParleyKit

/// The UI-free state of one room's conversation: observe ``snapshots()``, call the intents.
///
/// Messages come from the client's exactly-once room feed; outgoing ones show as pending
/// from the outbox until the server has them, then sent, then seen (a read cursor of another
/// member reached them), or failed with retry. Blocked users' messages and typing are hidden,
/// following the client's block list (``ParleyClient/block(_:)``) as it changes. No networking
/// of its own: tests drive it with the in-memory server and a manual clock.
public actor ConversationModel {
    /// Settings of the model.
    public struct Options: Sendable {
        /// The composer's character limit.
        public var characterLimit: Int
        /// Day separators use this offset from UTC, in seconds.
        public var utcOffsetSeconds: Int
        /// History page size for loading older messages.
        public var pageSize: Int

        /// Creates options.
        public init(characterLimit: Int = 256, utcOffsetSeconds: Int = 0, pageSize: Int = 50) {
            self.characterLimit = characterLimit
            self.utcOffsetSeconds = utcOffsetSeconds
            self.pageSize = pageSize
        }
    }

    private let client: ParleyClient
    private let roomID: String
    private let drafts: DraftStore
    private let options: Options
    private let hub: Broadcaster<ConversationSnapshot>
    private var me = ""
    private var room: ChatRoom?
    private var names: [String: String] = [:]
    private var messages: [Int64: ChatMessage] = [:]
    private var outbox: [PendingMessage] = []
    private var cursors: [String: Int64] = [:]
    private var typers: [String] = []
    /// Users the signed-in user blocks: their messages and typing are not shown (history leaves
    /// their messages out; the cache and what arrived before a block may still hold some).
    private var blocked: Set<String> = []
    /// Attachments of the room deleted while this model listened.
    private var deletedAttachments: Set<String> = []
    private var presence: PresenceStatus?
    private var connection: ConnectionState = .idle
    private var draft = ""
    private var hasOlder = false
    private var notice: String?
    private var visible = true
    private var tasks: [Task<Void, Never>] = []

    /// Creates the model of a room; call ``start()`` next.
    public init(client: ParleyClient, roomID: String, drafts: DraftStore = DraftStore(), options: Options = Options()) {
        self.client = client
        self.roomID = roomID
        self.drafts = drafts
        self.options = options
        hub = Broadcaster(replayLatest: true)
    }

    /// The snapshot now and after every change.
    public nonisolated func snapshots() -> AsyncStream<ConversationSnapshot> { hub.stream() }

    /// Shows the cache at once, then loads the latest page and follows the room live.
    public func start() async {
        draft = await drafts.draft(for: roomID)
        do {
            me = try await client.userID()
            for message in try await client.cachedMessages(roomID) { messages[message.seq] = message }
        } catch {
            notice = "Could not read the saved messages: \(error.message)"
        }
        publish()
        await followBlocks()
        // Offline, the room and its history come once the connection is back (connectionChanged).
        await note { () throws(ParleyError) in room = try await client.room(roomID) }
        // Without any known position, follow from the start: a guessed baseline could skip messages.
        var after: Int64 = messages.keys.max() ?? 0
        await note { () throws(ParleyError) in
            let page = try await client.history(roomID, limit: options.pageSize)
            for message in page.messages { messages[message.seq] = message }
            hasOlder = page.hasMore
            after = max(after, page.messages.last?.seq ?? 0)
        }
        await note { () throws(ParleyError) in
            let events = try await client.roomEvents(roomID, after: after)
            tasks.append(Task { for await event in events { await self.apply(event) } })
        }
        let states = client.connectionStates()
        tasks.append(Task { for await state in states { await self.connectionChanged(state) } })
        await note { () throws(ParleyError) in
            for cursor in try await client.cursors(in: roomID) { cursors[cursor.userID] = cursor.seq }
            if let partner = room?.directPartner(of: me) { presence = try await client.presence(of: partner) }
            outbox = try await client.outbox().filter { $0.roomID == roomID }
        }
        await resolveNames()
        markReadIfVisible()
        publish()
    }

    /// Reads the block list before any message is shown live, then follows its changes.
    /// Offline it is read once the connection is back; until then nobody is hidden.
    private func followBlocks() async {
        do { blocked = try await client.blockedUsers() } catch {
            // Not worth a notice of its own: the room's loads tell of the same failure.
        }
        let changes = client.blockedUserChanges()
        tasks.append(Task { for await ids in changes { await self.blocksChanged(ids) } })
    }

    /// Someone was unblocked: their messages are back in history, so the latest page is read again.
    private func blocksChanged(_ ids: Set<String>) async {
        let unblocked = !blocked.subtracting(ids).isEmpty
        blocked = ids
        typers.removeAll { ids.contains($0) }
        if unblocked {
            await note { () throws(ParleyError) in
                let page = try await client.history(roomID, limit: options.pageSize)
                for message in page.messages { messages[message.seq] = message }
            }
            await resolveNames()
        }
        publish()
    }

    /// Runs a load; its failure becomes the notice (the screen shows what it has meanwhile).
    private func note(_ body: () async throws(ParleyError) -> Void) async {
        do { try await body() } catch { notice = error.message }
    }

    /// Stops following the room.
    public func stop() {
        for task in tasks { task.cancel() }
        tasks = []
        hub.finish()
    }

    // MARK: Intents

    /// The composer's text changed: keeps the room's draft and tells others the user types.
    public func updateDraft(_ text: String) async {
        draft = text
        await drafts.setDraft(text, for: roomID)
        if !text.isEmpty { await note { () throws(ParleyError) in try await client.userIsTyping(in: roomID) } }
        publish()
    }

    /// Sends the draft (if within the limit and not blank) and clears it.
    public func send() async {
        let composer = ComposerState(draft: draft, limit: options.characterLimit)
        guard composer.canSend else {
            notice = composer.isOverLimit ? "Message is \(-composer.remaining) characters too long" : nil
            publish()
            return
        }
        let text = draft
        let shownBefore = Set(outbox.map(\.clientID))
        do {
            // The pending row shows at once from the outbox event; this waits for the server.
            let result = try await client.send(text: text, to: roomID)
            if case .queued(let entry) = result, !outbox.contains(where: { $0.clientID == entry.clientID }) { outbox.append(entry) }
            if draft == text {
                draft = ""
                await drafts.setDraft("", for: roomID)
            }
            notice = nil
        } catch {
            notice = "Not sent: \(error.message)"
            // The refused message left the outbox; its pending row (shown since the send began) goes too.
            do {
                let queued = Set(try await client.outbox().map(\.clientID))
                outbox.removeAll { !shownBefore.contains($0.clientID) && !queued.contains($0.clientID) && $0.state == .pending }
            } catch {
                notice = "Not sent: \(error.message)"
            }
        }
        publish()
    }

    /// Sends a failed message again.
    public func retry(clientID: String) async {
        do { try await client.retry(clientID: clientID) } catch { notice = error.message }
        publish()
    }

    /// Replaces a message's text.
    public func edit(messageID: Int64, text: String) async {
        do {
            let edited = try await client.edit(messageID: messageID, in: roomID, parts: [.text(text)])
            messages[edited.seq] = edited
        } catch {
            notice = error.message
        }
        publish()
    }

    /// Deletes a message (or discards a failed outgoing one by its client id).
    public func delete(messageID: Int64) async {
        do {
            let deleted = try await client.delete(messageID: messageID, in: roomID)
            messages[deleted.seq] = deleted
        } catch {
            notice = error.message
        }
        publish()
    }

    /// Adds (or removes) the user's reaction.
    public func react(_ emoji: String, to messageID: Int64, adding: Bool = true) async {
        do {
            let counts = try await client.react(emoji, to: messageID, in: roomID, adding: adding)
            if let seq = messages.first(where: { $0.value.id == messageID })?.key { messages[seq]?.reactions = counts }
        } catch {
            notice = error.message
        }
        publish()
    }

    /// Loads the page before the oldest message shown.
    public func loadOlder() async {
        guard let oldest = messages.keys.min(), oldest > 1 else {
            hasOlder = false
            publish()
            return
        }
        do {
            let page = try await client.history(roomID, before: oldest, limit: options.pageSize)
            for message in page.messages where messages[message.seq] == nil { messages[message.seq] = message }
            hasOlder = page.hasMore
            await resolveNames()
        } catch {
            notice = error.message
        }
        publish()
    }

    /// The most messages ``loadThrough(seq:context:)`` reads for one message: one further
    /// back than this is not brought in (each page of up to 100 is one request).
    public static let loadThroughLimit = 2000

    /// Loads history until the message at `seq` and up to `context` messages before it are
    /// shown (to jump to a search result, say), reading at most ``loadThroughLimit`` messages.
    /// Returns whether the message at `seq` is loaded.
    public func loadThrough(seq: Int64, context: Int = 5) async -> Bool {
        let target = max(1, seq - Int64(max(0, context)))
        if messages[seq] != nil, !hasOlder || (messages.keys.min() ?? seq) <= target { return true }
        // Down from the first message loaded after it: the cache may hold older messages with
        // a gap between them and the latest page, so the oldest loaded one is no cursor.
        var cursor = messages.keys.filter { $0 > seq }.min() ?? seq + 1
        let oldestBefore = messages.keys.min() ?? cursor
        var read = 0
        while cursor > target, read < Self.loadThroughLimit {
            let limit = min(ParleyClient.historyPageLimit, max(options.pageSize, Int(cursor - target)), Self.loadThroughLimit - read)
            do {
                let page = try await client.history(roomID, before: cursor, limit: limit)
                for message in page.messages where messages[message.seq] == nil { messages[message.seq] = message }
                read += limit
                guard let first = page.messages.first else { break }
                if first.seq <= oldestBefore { hasOlder = page.hasMore }
                cursor = first.seq
                if !page.hasMore { break }
            } catch {
                notice = error.message
                break
            }
        }
        await resolveNames()
        publish()
        return messages[seq] != nil
    }

    /// Whether the conversation is on screen: while it is, new messages are marked read.
    public func setVisible(_ isVisible: Bool) {
        visible = isVisible
        markReadIfVisible()
    }

    // MARK: Events

    private func apply(_ event: RoomEvent) async {
        switch event {
        case .message(let message):
            messages[message.seq] = message
            outbox.removeAll { $0.clientID == message.clientID }
            if names[message.senderID] == nil { await resolveNames() }
            markReadIfVisible()
        case .messageUpdated(let message), .messageDeleted(let message):
            messages[message.seq] = message
        case .reactions(let id, let reactions):
            if let seq = messages.first(where: { $0.value.id == id })?.key { messages[seq]?.reactions = reactions }
        case .threadUpdated(let activity):
            if let root = messages.first(where: { $0.value.id == activity.rootID }) {
                messages[root.key] = activity.applied(to: root.value)
            }
            if activity.lastReplierIDs.contains(where: { names[$0] == nil }) { await resolveNames() }
        case .cursor(let cursor):
            cursors[cursor.userID] = max(cursors[cursor.userID] ?? 0, cursor.seq)
        case .typing(let users):
            typers = users.filter { !blocked.contains($0) }
            if users.contains(where: { names[$0] == nil }) { await resolveNames() }
        case .presence(let status):
            if status.userID == room?.directPartner(of: me) { presence = status }
        case .roomUpdated(let updated):
            room = updated
        case .outbox(let entries):
            let delivered = Set(messages.values.compactMap(\.clientID))
            // A message that left the outbox because the server has it may still wait behind a
            // history gap-fill: keep showing it until the feed delivers it, so it never flickers away.
            let awaitingFeed = outbox.filter { old in
                !delivered.contains(old.clientID) && old.state == .pending && !entries.contains { $0.clientID == old.clientID }
            }
            outbox = entries.filter { !delivered.contains($0.clientID) } + awaitingFeed
        case .subscriptionFailed(let error):
            notice = "Not receiving live updates: \(error.message)"
        case .attachmentDeleted(let id):
            deletedAttachments.insert(id)
        case .memberJoined, .memberLeft, .memberUpdated, .roomDeleted:
            break
        }
        publish()
    }

    private func connectionChanged(_ state: ConnectionState) async {
        // Started offline: fetch what could not be fetched then, so the online snapshot has it.
        // Started offline: the block list too (its change event then updates `blocked`).
        if state == .online { _ = try? await client.blockedUsers() }
        if state == .online, room == nil {
            await note { () throws(ParleyError) in room = try await client.room(roomID) }
            await resolveNames()
        }
        connection = state
        publish()
    }

    private func markReadIfVisible() {
        guard visible, let last = messages.keys.max() else { return }
        let client = self.client, roomID = self.roomID
        Task {
            // Only a closed client refuses; the model is being torn down then.
            do throws(ParleyError) { try await client.markRead(roomID, upTo: last) } catch { self.noted(error) }
        }
    }

    private func noted(_ error: ParleyError) {
        notice = error.message
        publish()
    }

    private func resolveNames() async {
        let people = messages.values.flatMap { message in
            [message.senderID] + message.lastReplierIDs + [message.quoted?.senderID].compactMap { $0 }
        }
        let unknown = Set(people + (room?.directUserIDs ?? []) + typers).subtracting(names.keys)
        for id in unknown {
            // Someone whose profile cannot be read now shows by id; the notice says why.
            do { names[id] = try await client.user(id).name } catch {
                names[id] = id
                notice = error.message
            }
        }
    }

    // MARK: Snapshot

    private func publish() { hub.send(snapshot()) }

    /// The current snapshot.
    public func snapshot() -> ConversationSnapshot {
        ConversationSnapshot(
            roomID: roomID, title: title(), partnerPresence: presence, items: items(), typingLine: typingLine(),
            banner: Self.banner(connection), connection: connection,
            composer: ComposerState(draft: draft, limit: options.characterLimit), hasOlder: hasOlder, notice: notice)
    }

    private func title() -> String {
        if let name = room?.name, !name.isEmpty { return name }
        if let partner = room?.directPartner(of: me) { return names[partner] ?? partner }
        return roomID
    }

    private func items() -> [ConversationItem] {
        // Thread-only replies belong to their thread (its root shows the count), not the room.
        var rows = messages.values.filter { $0.showInRoom && !blocked.contains($0.senderID) }.sorted { $0.seq < $1.seq }.map(row)
        rows += outbox.map(row)
        var items: [ConversationItem] = []
        var day: DayStamp?
        for row in rows {
            let rowDay = DayStamp(milliseconds: row.createdAt, utcOffsetSeconds: options.utcOffsetSeconds)
            if rowDay != day {
                items.append(.day(rowDay))
                day = rowDay
            }
            items.append(.message(row))
        }
        return items
    }

    private func row(_ message: ChatMessage) -> MessageRow {
        var row = MessageRow(message: message, me: me, names: names, cursors: cursors)
        if !deletedAttachments.isEmpty {
            row.deletedAttachmentIDs = Set(message.parts.compactMap(\.attachmentID)).intersection(deletedAttachments)
        }
        return row
    }

    private func row(_ pending: PendingMessage) -> MessageRow {
        let status: MessageRow.Status
        switch pending.state {
        case .pending: status = .pending
        case .failed(_, let message): status = .failed(reason: message)
        }
        return MessageRow(
            id: pending.clientID, messageID: nil, seq: nil, clientID: pending.clientID, senderID: me,
            senderName: names[me] ?? me, text: pending.parts.compactMap(\.text).joined(separator: "\n"),
            parts: pending.parts, direction: .outgoing, status: status, createdAt: pending.createdAt,
            isEdited: false, isDeleted: false, reactions: [], seenBy: [])
    }

    private func typingLine() -> String? {
        let shown = typers.map { names[$0] ?? $0 }
        switch shown.count {
        case 0: return nil
        case 1: return "\(shown[0]) is typing…"
        case 2: return "\(shown[0]) and \(shown[1]) are typing…"
        default: return "\(shown.count) people are typing…"
        }
    }

    static func banner(_ state: ConnectionState) -> String? {
        switch state {
        case .online: return nil
        case .idle: return "Offline"
        case .signingIn: return "Signing in…"
        case .authenticationFailed(let error): return "Signed out: " + error.message
        case .offline(let reason): return "Offline: " + reason
        case .reconnecting(_, let delay):
            let seconds = delay.components.seconds + (delay.components.attoseconds > 0 ? 1 : 0)
            return seconds > 0 ? "Reconnecting in \(seconds) s…" : "Reconnecting…"
        }
    }
}
