import ParleyStore
import ParleyWire

/// Push device tokens of a user (the user themself or the app's backend): stored per user so a
/// notification sender can look up where to deliver.
extension ChatService {
    /// The push services a token may be for.
    static let devicePlatforms: Set<String> = ["apns", "apns_sandbox", "fcm"]

    func registerDevice(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        let user = call.parameter("user_id"), token = call.parameter("token")
        try requireSelfOrApp(context, user)
        let body = try JSONBody(call.request, limit: configuration.limits.jsonBodyBytes)
        let platform = try body.string("platform")
        guard Self.devicePlatforms.contains(platform) else {
            throw ChatError(.validationFailed, "platform must be one of apns, apns_sandbox, fcm")
        }
        try Self.validateDeviceToken(token)
        let device = try await storeCall(notFound: .userNotFound) {
            try await store.registerDevice(app: context.appID, user: user, token: token, platform: platform)
        }
        return .json(device.json)
    }

    func removeDevice(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        let user = call.parameter("user_id"), token = call.parameter("token")
        try requireSelfOrApp(context, user)
        // A token no registration could hold is a bad request, not a removal of nothing.
        try Self.validateDeviceToken(token)
        _ = try await storeCall(notFound: .userNotFound) { try await store.removeDevice(app: context.appID, user: user, token: token) }
        return .noContent
    }

    func listDevices(_ call: ChatCall) async throws -> ChatResponse {
        let context = try call.requireContext()
        let user = call.parameter("user_id")
        try requireSelfOrApp(context, user)
        let devices = try await storeCall(notFound: .userNotFound) { try await store.devices(app: context.appID, user: user) }
        return .json(["devices": .array(devices.map(\.json))])
    }

    /// Tokens are opaque but printable: hex for APNs, base64url-ish with `:` for FCM.
    static func validateDeviceToken(_ token: String) throws(ChatError) {
        guard (1...512).contains(token.utf8.count), token.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw ChatError(.validationFailed, "device token must be 1 to 512 printable ASCII characters")
        }
    }
}
