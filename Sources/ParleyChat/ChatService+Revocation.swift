import ParleyChannels
import ParleyStore

/// Access ends the moment membership ends: revoking realtime subscriptions, telling the
/// documents, and refusing the tokens of deleted users.
extension ChatService {
    /// Makes `hub` admit sockets to the guarded channels (`guardedChannelPrefixes`) only with a
    /// live grant from `POST /v1/channels/auth`, and lets the grants check which sockets exist.
    public func guardSubscriptions(on hub: LocalChannelHub) {
        grants.setSocketCheck { [weak hub] app, socket in hub?.isConnected(app: app, socketID: socket) ?? false }
        grants.setConfirmationHandler { [weak hub] app, socket, channel in hub?.reconsider(app: app, socketID: socket, channel: channel) }
        hub.setSubscriptionGate(grants)
    }

    /// Adds an observer told of every access that ends (the documents mount).
    public func addAccessEndObserver(_ observer: any AccessEndObserver) {
        accessObservers.withLock { $0.append(observer) }
    }

    /// Verifies a user token as the REST API does, including the deleted-user check:
    /// `token_revoked` for a token issued before its user was deleted.
    public func authenticateUser(_ token: String, expectedApp: String? = nil) async throws(ChatError) -> UserToken {
        let claims = try verifyUserToken(token, expectedApp: expectedApp)
        try await requireCurrentToken(app: claims.appID, user: claims.userID, issuedAt: claims.issuedAt)
        return claims
    }

    /// Refuses a user token issued before its user's cutoff (app calls always pass).
    func requireCurrentToken(_ context: ChatContext) async throws(ChatError) {
        guard let user = context.caller.userID else { return }
        try await requireCurrentToken(app: context.appID, user: user, issuedAt: context.tokenIssuedAt)
    }

    private func requireCurrentToken(app: String, user: String, issuedAt: Int64?) async throws(ChatError) {
        let key = TokenCutoffs.Key(app: app, user: user)
        let (cached, generation) = tokenCutoffs.lookup(key)
        let cutoff: TokenCutoffs.Cutoff
        if let cached {
            cutoff = cached
        } else {
            let read = try await storeCall(notFound: .userNotFound) { try await store.tokensValidAfter(app: app, user: user) }
            cutoff = read.map { .at($0) } ?? .none
            tokenCutoffs.store(key, cutoff, readAt: generation)
        }
        guard !TokenCutoffs.honours(cutoff, issuedAt: issuedAt) else { return }
        throw ChatError(.tokenRevoked, "user \(user) was deleted after this token was issued; mint a new token")
    }

    /// Everything that follows a committed end of access, in order: the chat's channels are
    /// revoked (after the call's own events, already published), signed-in connections of a
    /// deleted user are closed, and the observers hear of it.
    func endAccess(_ ending: AccessEnding) {
        endAccessHere(ending)
        if ending.room == nil, let user = ending.user {
            publisher.disconnect(app: ending.app, user: user)
        }
        announce(.accessEnded(ending))
    }

    /// The part of an end of access each node does for its own sockets and grants.
    func endAccessHere(_ ending: AccessEnding) {
        let lost = grants.revoke(app: ending.app, room: ending.room, user: ending.user)
        var revocations: [String: SubscriptionRevocation] = [:]
        for (channel, sockets) in lost {
            revocations[channel] = SubscriptionRevocation(
                channel: channel, target: .sockets(sockets, signedInAs: ending.user),
                reason: ending.reason.rawValue)
        }
        if let room = ending.room {
            // The room's channel goes whether or not a grant was found: a deleted room's
            // channel is emptied, a removed member's signed-in sockets are taken off it.
            let channel = ChatEvent.roomChannel(room)
            let target: SubscriptionRevocation.Target = ending.user == nil ? .all : .sockets(lost[channel] ?? [], signedInAs: ending.user)
            revocations[channel] = SubscriptionRevocation(channel: channel, target: target, reason: ending.reason.rawValue)
        }
        publisher.revoke(app: ending.app, revocations.keys.sorted().compactMap { revocations[$0] })
        for observer in accessObservers.withLock({ $0 }) { observer.accessEnded(ending) }
    }

    /// After a user was deleted: their cutoff is known at once and their cached tokens forgotten.
    func recordDeletedUser(app: String, user: String) async {
        let key = TokenCutoffs.Key(app: app, user: user)
        if let cutoff = (try? await store.tokensValidAfter(app: app, user: user)).flatMap({ $0 }) {
            tokenCutoffs.record(key, .at(cutoff))
        } else {
            tokenCutoffs.forget(key)  // the next request reads the store again
        }
        verifier.cache.forget(app: app, user: user)
        announce(.userDeleted(app: app, user: user))
    }
}
