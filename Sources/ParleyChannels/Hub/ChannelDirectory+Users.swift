import ParleyWire

extension ChannelDirectory {
    /// Records a signed-in connection; returns its initial watchlist event and tells the
    /// watchers of a user who just came online.
    public mutating func signIn(app: AppConfig, socketID: String, user: PusherSignedInUser) -> [DirectoryEffect] {
        Self.signIn(&apps[app.id, default: App()], app: app, socketID: socketID, user: user)
    }

    private static func signIn(_ state: inout App, app: AppConfig, socketID: String, user: PusherSignedInUser) -> [DirectoryEffect] {
        var effects: [DirectoryEffect] = []
        let cameOnline = state.users[user.userID]?.isEmpty ?? true
        state.users[user.userID, default: []].insert(socketID)
        if cameOnline {
            let frame = PusherFrame.watchlistEvents([(name: "online", userIDs: [user.userID])])
            for watcher in (state.watchers[user.userID] ?? []).sorted() where watcher != socketID {
                effects.append(.send(app: app.id, socketID: watcher, frame: frame))
            }
        }
        if !user.watchlist.isEmpty {
            state.watchlists[socketID] = user.watchlist
            for id in user.watchlist { state.watchers[id, default: []].insert(socketID) }
            let online = user.watchlist.filter { !(state.users[$0]?.isEmpty ?? true) }
            let offline = user.watchlist.filter { state.users[$0]?.isEmpty ?? true }
            var groups: [(name: String, userIDs: [String])] = []
            if !online.isEmpty { groups.append((name: "online", userIDs: online)) }
            if !offline.isEmpty { groups.append((name: "offline", userIDs: offline)) }
            effects.append(.send(app: app.id, socketID: socketID, frame: PusherFrame.watchlistEvents(groups)))
        }
        return effects
    }

    /// Forgets a signed-in connection; tells watchers when the user's last connection left.
    public mutating func signOut(app: AppConfig, socketID: String, userID: String) -> [DirectoryEffect] {
        guard apps[app.id] != nil else { return [] }
        return Self.signOut(&apps[app.id, default: App()], socketID: socketID, userID: userID, app: app)
    }

    private static func signOut(_ state: inout App, socketID: String, userID: String, app: AppConfig) -> [DirectoryEffect] {
        var effects: [DirectoryEffect] = []
        state.users[userID]?.remove(socketID)
        if state.users[userID]?.isEmpty ?? false {
            state.users[userID] = nil
            let frame = PusherFrame.watchlistEvents([(name: "offline", userIDs: [userID])])
            for watcher in (state.watchers[userID] ?? []).sorted() where watcher != socketID {
                effects.append(.send(app: app.id, socketID: watcher, frame: frame))
            }
        }
        if let watched = state.watchlists.removeValue(forKey: socketID) {
            for id in watched {
                state.watchers[id]?.remove(socketID)
                if state.watchers[id]?.isEmpty ?? false { state.watchers[id] = nil }
            }
        }
        return effects
    }
}
