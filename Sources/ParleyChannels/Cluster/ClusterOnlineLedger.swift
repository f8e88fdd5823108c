/// Which nodes each signed-in user has a connection on, as this node heard it on the bus.
///
/// Fed in the bus's one order (Redis delivers every node's messages, this node's own echoes
/// included, to every node in the same order), so every node sees the same transitions and
/// can agree on who announces one: the node whose own change made the user come online or go
/// offline. A value: applying a change returns the transition, if any.
struct ClusterOnlineLedger: Sendable {
    /// A user came online (first connection anywhere) or went offline (last one anywhere).
    struct Transition: Sendable, Equatable {
        var app: String
        var user: String
        var online: Bool
    }

    /// A user of an app.
    struct User: Hashable, Sendable {
        var app: String
        var user: String
    }

    private var nodes: [User: Set<String>] = [:]

    /// Records that `node` has (or no longer has) a connection of the user.
    mutating func apply(node: String, app: String, user: String, online: Bool) -> Transition? {
        let key = User(app: app, user: user)
        var holders = nodes[key] ?? []
        let before = !holders.isEmpty
        if online { holders.insert(node) } else { holders.remove(node) }
        nodes[key] = holders.isEmpty ? nil : holders
        let after = !holders.isEmpty
        return before == after ? nil : Transition(app: app, user: user, online: after)
    }

    /// Replaces what is known of `node` with `users` and returns the transitions.
    mutating func replace(node: String, with users: Set<User>) -> [Transition] {
        let order: (User, User) -> Bool = { ($0.app, $0.user) < ($1.app, $1.user) }
        var transitions: [Transition] = []
        for key in nodes.keys.sorted(by: order) where nodes[key]?.contains(node) == true && !users.contains(key) {
            if let t = apply(node: node, app: key.app, user: key.user, online: false) { transitions.append(t) }
        }
        for key in users.sorted(by: order) where nodes[key]?.contains(node) != true {
            if let t = apply(node: node, app: key.app, user: key.user, online: true) { transitions.append(t) }
        }
        return transitions
    }

    /// Whether any node has a connection of the user.
    func isOnline(app: String, user: String) -> Bool { nodes[User(app: app, user: user)] != nil }
}
