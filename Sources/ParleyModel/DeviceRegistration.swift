import ParleyWireCore

/// A push notification address of one of a user's devices.
public struct DeviceRegistration: Sendable, Equatable, Hashable {
    /// The push service a token belongs to.
    public enum Platform: String, Sendable, Codable, CaseIterable {
        /// Apple Push Notification service, production.
        case apns
        /// The APNs sandbox (development builds).
        case apnsSandbox = "apns_sandbox"
        /// Firebase Cloud Messaging.
        case fcm
    }

    /// The token, as the push service gave it (APNs: hex text).
    public var token: String
    /// The user it is registered for.
    public var userID: String
    /// Its push service.
    public var platform: Platform
    /// When it was last registered, milliseconds since the Unix epoch.
    public var updatedAt: Int64

    /// Creates a value.
    public init(token: String, userID: String, platform: Platform, updatedAt: Int64 = 0) {
        self.token = token
        self.userID = userID
        self.platform = platform
        self.updatedAt = updatedAt
    }

    /// Reads the API's form; an unknown platform is an error.
    public init(json: JSONValue?) throws(ParleyError) {
        let r = try JSONReader(json, "device")
        let name = try r.string("platform")
        guard let platform = Platform(rawValue: name) else { throw ParleyError(.decoding, "device: unknown platform \(name)") }
        self.init(
            token: try r.string("token"), userID: try r.string("user_id"), platform: platform,
            updatedAt: try r.int64IfPresent("updated_at") ?? 0)
    }

    /// The API's form.
    public var json: JSONValue {
        .object([
            "token": .string(token), "user_id": .string(userID), "platform": .string(platform.rawValue),
            "updated_at": .int64(updatedAt)
        ])
    }

    /// APNs hands the app its token as bytes; the server takes it as lowercase hex.
    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef")
        var text = ""
        for byte in bytes { text.append(digits[Int(byte >> 4)]); text.append(digits[Int(byte & 15)]) }
        return text
    }
}
