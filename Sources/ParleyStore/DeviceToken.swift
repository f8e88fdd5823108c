/// A push notification address of one of a user's devices.
public struct DeviceToken: Sendable, Hashable {
    /// The token the push service gave the app on that device (APNs: hex; FCM: its registration token).
    public var token: String
    /// The user signed in on the device.
    public var userID: String
    /// The push service: `apns`, `apns_sandbox` or `fcm`.
    public var platform: String
    /// When it was last registered, milliseconds since the Unix epoch.
    public var updatedAt: Int64

    /// Creates a value.
    public init(token: String, userID: String, platform: String, updatedAt: Int64) {
        self.token = token
        self.userID = userID
        self.platform = platform
        self.updatedAt = updatedAt
    }
}
