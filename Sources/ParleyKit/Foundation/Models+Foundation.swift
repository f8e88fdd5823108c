import Foundation

// Foundation views of the models' wire values: the stored properties stay the server's
// integers and strings (what the cache and the tests compare), these read them as Date and URL.

extension ChatMessage {
    /// When the message was created.
    public var createdDate: Date { Date(parleyMilliseconds: createdAt) }
    /// When it was last edited, if ever.
    public var editedDate: Date? { editedAt.map(Date.init(parleyMilliseconds:)) }
    /// When it was deleted, if it was.
    public var deletedDate: Date? { deletedAt.map(Date.init(parleyMilliseconds:)) }
}

extension ChatRoom {
    /// When the room was created.
    public var createdDate: Date { Date(parleyMilliseconds: createdAt) }
    /// When its last message was sent (or the room created).
    public var lastActivityDate: Date { Date(parleyMilliseconds: lastActivityAt) }
}

extension ChatUser {
    /// When the user was created.
    public var createdDate: Date { Date(parleyMilliseconds: createdAt) }
    /// When the user's profile last changed.
    public var updatedDate: Date { Date(parleyMilliseconds: updatedAt) }
    /// The avatar's URL, nil when there is none or it is not a URL.
    public var avatar: URL? { avatarURL.flatMap(URL.init(string:)) }
}

extension PendingMessage {
    /// When the message was queued.
    public var createdDate: Date { Date(parleyMilliseconds: createdAt) }
}

extension PresenceStatus {
    /// When the user was last seen, if known.
    public var lastSeenDate: Date? { lastSeenAt.map(Date.init(parleyMilliseconds:)) }
}

extension ReadCursor {
    /// When the user read up to the cursor, if known.
    public var readDate: Date? { readAt.map(Date.init(parleyMilliseconds:)) }
}

extension Attachment {
    /// The download URL, nil when the server gave none.
    public var downloadLink: URL? { downloadURL.flatMap(URL.init(string:)) }
}

extension ParleyConfiguration {
    /// A configuration for the server at `server` (`https://chat.example.com`); see
    /// ``init(serverURL:appKey:appID:realtimeURL:storePath:reconnect:typingInterval:typingTimeout:cursorDebounce:historyPageSize:activityTimeout:diagnostics:)``
    /// for the rest. `store` is the file URL of the outbox and cache (nil: in memory).
    public init(
        server: URL, appKey: String, appID: String? = nil, store: URL? = nil,
        reconnect: ReconnectPolicy = ReconnectPolicy(),
        diagnostics: (@Sendable (ParleyDiagnostic) -> Void)? = nil
    ) {
        self.init(
            serverURL: server.absoluteString, appKey: appKey, appID: appID, storePath: store?.path,
            reconnect: reconnect, diagnostics: diagnostics)
    }

    /// The server's base URL as a `URL`.
    public var server: URL? { URL(string: serverURL) }
}

extension HTTPTokenProvider {
    /// A provider asking the endpoint `url` for `userID`'s token.
    public init(url: URL, userID: String? = nil, http: any HTTPTransport = PlatformTransports.http()) {
        self.init(url: url.absoluteString, userID: userID, http: http)
    }
}

extension ParleyClient {
    /// Uploads `data` into a room; see ``upload(_:contentType:to:progress:)``.
    public func upload(
        _ data: Data, contentType: String, to roomID: String,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async throws(ParleyError) -> Attachment {
        try await upload([UInt8](data), contentType: contentType, to: roomID, progress: progress)
    }

    /// An attachment's bytes as `Data`.
    public func downloadData(_ attachmentID: String) async throws(ParleyError) -> Data {
        Data(try await download(attachmentID))
    }
}
