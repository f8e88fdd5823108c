import Observation
import ParleyKit

/// One conversation as observable state for SwiftUI: a ``ConversationModel`` whose snapshots
/// land in properties on the main actor (messages with day separators, typing line, composer,
/// connection banner).
///
/// Each async call returns once the properties show its outcome: after ``send()`` the message
/// is in ``items`` as sent, or as pending when the client is offline (it is delivered once the
/// connection is back, exactly once), or ``notice`` says why the server refused it.
@MainActor @Observable
public final class ConversationState {
    /// The room's id.
    public let roomID: String
    /// The room's title (the partner's name in a direct room).
    public private(set) var title: String = ""
    /// The direct partner's presence, nil in group rooms.
    public private(set) var partnerPresence: PresenceStatus?
    /// Messages and day separators, oldest first.
    public private(set) var items: [ConversationItem] = []
    /// "Alice is typing…", nil when nobody types.
    public private(set) var typingLine: String?
    /// A connection banner, nil when online.
    public private(set) var banner: String?
    /// The client's connection state.
    public private(set) var connection: ConnectionState = .idle
    /// The composer: draft, limit and whether it can be sent.
    public private(set) var composer = ComposerState()
    /// Whether older messages can be loaded (``loadOlder()``).
    public private(set) var hasOlder = false
    /// The last failure worth telling the user.
    public private(set) var notice: String?

    /// The message rows of ``items``.
    public var messages: [MessageRow] { items.compactMap(\.message) }

    @ObservationIgnored private let model: ConversationModel
    @ObservationIgnored private var follower: Task<Void, Never>?

    /// State over a new ``ConversationModel`` of `roomID`.
    public convenience init(
        client: ParleyClient, roomID: String, drafts: DraftStore = DraftStore(),
        options: ConversationModel.Options = ConversationModel.Options()
    ) {
        self.init(model: ConversationModel(client: client, roomID: roomID, drafts: drafts, options: options), roomID: roomID)
    }

    /// State over `model` (one it has not started) of `roomID`.
    public init(model: ConversationModel, roomID: String) {
        self.model = model
        self.roomID = roomID
    }

    /// Shows the cache, then the latest page, then follows the room live; returns once the
    /// latest page is in ``items``.
    public func start() async {
        guard follower == nil else { return }
        let snapshots = model.snapshots()
        follower = Task { [weak self] in
            for await snapshot in snapshots { self?.apply(snapshot) }
        }
        await model.start()
        apply(await model.snapshot())
    }

    /// Stops following the room; the properties keep their last values.
    public func stop() async {
        follower?.cancel()
        follower = nil
        await model.stop()
    }

    /// The composer's text changed (keeps the draft, tells others the user types).
    public func updateDraft(_ text: String) async {
        await model.updateDraft(text)
        apply(await model.snapshot())
    }

    /// Sends the draft and clears it; see the type's description for what the state shows after.
    public func send() async {
        await model.send()
        apply(await model.snapshot())
    }

    /// Sends a failed message again.
    public func retry(clientID: String) async {
        await model.retry(clientID: clientID)
        apply(await model.snapshot())
    }

    /// Replaces a message's text.
    public func edit(messageID: Int64, text: String) async {
        await model.edit(messageID: messageID, text: text)
        apply(await model.snapshot())
    }

    /// Deletes a message.
    public func delete(messageID: Int64) async {
        await model.delete(messageID: messageID)
        apply(await model.snapshot())
    }

    /// Adds (or with `adding: false` removes) the user's reaction.
    public func react(_ emoji: String, to messageID: Int64, adding: Bool = true) async {
        await model.react(emoji, to: messageID, adding: adding)
        apply(await model.snapshot())
    }

    /// Loads the page before the oldest message shown.
    public func loadOlder() async {
        await model.loadOlder()
        apply(await model.snapshot())
    }

    /// Whether the conversation is on screen: while it is, new messages are marked read.
    public func setVisible(_ isVisible: Bool) async {
        await model.setVisible(isVisible)
        apply(await model.snapshot())
    }

    /// Copies a snapshot in, touching only what changed.
    private func apply(_ snapshot: ConversationSnapshot) {
        if title != snapshot.title { title = snapshot.title }
        if partnerPresence != snapshot.partnerPresence { partnerPresence = snapshot.partnerPresence }
        if items != snapshot.items { items = snapshot.items }
        if typingLine != snapshot.typingLine { typingLine = snapshot.typingLine }
        if banner != snapshot.banner { banner = snapshot.banner }
        if connection != snapshot.connection { connection = snapshot.connection }
        if composer != snapshot.composer { composer = snapshot.composer }
        if hasOlder != snapshot.hasOlder { hasOlder = snapshot.hasOlder }
        if notice != snapshot.notice { notice = snapshot.notice }
    }
}
