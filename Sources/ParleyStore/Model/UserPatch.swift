/// A partial update of a user; fields left at `.keep` do not change.
public struct UserPatch: Sendable, Hashable {
    /// The new display name.
    public var name: Patch<String>
    /// The new avatar URL (`.set(nil)` removes it).
    public var avatarURL: Patch<String?>
    /// The new custom data (`.set(nil)` removes it).
    public var customData: Patch<String?>

    /// Describes a user update.
    public init(name: Patch<String> = .keep, avatarURL: Patch<String?> = .keep, customData: Patch<String?> = .keep) {
        self.name = name
        self.avatarURL = avatarURL
        self.customData = customData
    }
}
