/// A membership after an add or role change, and whether anything changed.
public struct MembershipChange: Sendable, Hashable {
    /// The membership as it is now.
    public var membership: Membership
    /// False when the call found the membership already as requested.
    public var changed: Bool

    /// Creates a value.
    public init(membership: Membership, changed: Bool) {
        self.membership = membership
        self.changed = changed
    }
}
