/// A validated Pusher channel name and what its prefix makes of it (spec section 3).
public struct PusherChannel: Hashable, Sendable, CustomStringConvertible {
    /// How a channel is authorised and what its subscribers see.
    public enum Kind: Sendable, Hashable {
        /// No prefix (or only `cache-`): anyone may subscribe.
        case `public`
        /// `private-`: needs a channel signature.
        case `private`
        /// `private-encrypted-`: needs a channel signature; payloads are end-to-end encrypted.
        case privateEncrypted
        /// `presence-`: needs a signature over the member's channel data.
        case presence
        /// `#server-to-user-{id}`: only for the connection signed in as that user.
        case serverToUser
    }

    /// Why a channel name is refused.
    public enum NameError: Error, Sendable, Equatable {
        /// The name is empty.
        case empty
        /// The name is longer than `PusherChannel.maxNameLength` bytes.
        case tooLong
        /// The name contains a character outside `[A-Za-z0-9_\-=@,.;]`.
        case invalidCharacter
        /// The name starts with `#` but is not `#server-to-user-{id}`.
        case reservedPrefix
    }

    /// The longest name accepted (the server libraries allow 200).
    public static let maxNameLength = 200
    /// The prefix of a user's personal channel.
    public static let serverToUserPrefix = "#server-to-user-"

    /// The channel name.
    public let name: String
    /// What the prefix makes of it.
    public let kind: Kind
    /// Whether this is a cache channel (remembers its last event).
    public let isCache: Bool

    /// Validates and classifies a channel name.
    public init(validating name: String) throws(NameError) {
        guard !name.isEmpty else { throw .empty }
        guard name.utf8.count <= Self.maxNameLength else { throw .tooLong }
        if name.utf8.first == UInt8(ascii: "#") {
            guard name.hasPrefix(Self.serverToUserPrefix) else { throw .reservedPrefix }
            let id = name.utf8.dropFirst(Self.serverToUserPrefix.utf8.count)
            guard !id.isEmpty else { throw .reservedPrefix }
            guard id.allSatisfy(Self.isNameByte) else { throw .invalidCharacter }
            self.name = name
            self.kind = .serverToUser
            self.isCache = false
            return
        }
        guard name.utf8.allSatisfy(Self.isNameByte) else { throw .invalidCharacter }
        self.name = name
        (self.kind, self.isCache) = Self.classify(name)
    }

    /// A channel from a name, or nil when the name is invalid.
    public init?(_ name: String) {
        guard let channel = try? PusherChannel(validating: name) else { return nil }
        self = channel
    }

    private static func classify(_ name: String) -> (Kind, Bool) {
        if name.hasPrefix("private-encrypted-") {
            return (.privateEncrypted, name.hasPrefix("private-encrypted-cache-"))
        }
        if name.hasPrefix("private-") { return (.private, name.hasPrefix("private-cache-")) }
        if name.hasPrefix("presence-") { return (.presence, name.hasPrefix("presence-cache-")) }
        return (.public, name.hasPrefix("cache-"))
    }

    /// Whether a byte may appear in a channel name.
    public static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "="), UInt8(ascii: "@"), UInt8(ascii: ","),
            UInt8(ascii: "."), UInt8(ascii: ";"):
            true
        default:
            false
        }
    }

    /// Whether subscribing needs a signature in `auth`.
    public var requiresSignature: Bool {
        kind == .private || kind == .privateEncrypted || kind == .presence
    }

    /// Whether clients may send `client-` events on it.
    public var allowsClientEvents: Bool {
        kind == .private || kind == .privateEncrypted || kind == .presence
    }

    /// The user id of a `#server-to-user-{id}` channel.
    public var serverToUserID: String? {
        guard kind == .serverToUser else { return nil }
        return String(name.dropFirst(Self.serverToUserPrefix.count))
    }

    /// The personal channel of a user.
    public static func serverToUser(_ userID: String) -> String { serverToUserPrefix + userID }

    public var description: String { name }
}
