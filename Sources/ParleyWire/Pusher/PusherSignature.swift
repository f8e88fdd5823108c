/// The HMAC-SHA256 signatures of the Pusher protocol (spec sections 4 and 8).
///
/// All are lowercase hex under the app secret; verification compares in constant time.
public enum PusherSignature {
    /// Lowercase hex HMAC-SHA256 of a message under a secret.
    public static func hmacHex(secret: String, _ message: some Collection<UInt8>) -> String {
        Digest.hmacSHA256(key: Array(secret.utf8), message).hexString
    }

    /// The string signed for a private or presence subscription:
    /// `socket_id:channel` or `socket_id:channel:channel_data`.
    public static func channelString(socketID: String, channel: String, channelData: String?) -> String {
        guard let channelData else { return "\(socketID):\(channel)" }
        return "\(socketID):\(channel):\(channelData)"
    }

    /// The string signed for a user sign-in: `socket_id::user::user_data`.
    public static func userString(socketID: String, userData: String) -> String {
        "\(socketID)::user::\(userData)"
    }

    /// The `auth` value a server library would produce for a channel subscription: `key:hexsig`.
    public static func channelAuth(key: String, secret: String, socketID: String, channel: String, channelData: String? = nil) -> String {
        key + ":" + hmacHex(secret: secret, Array(channelString(socketID: socketID, channel: channel, channelData: channelData).utf8))
    }

    /// The `auth` value for a user sign-in: `key:hexsig`.
    public static func userAuth(key: String, secret: String, socketID: String, userData: String) -> String {
        key + ":" + hmacHex(secret: secret, Array(userString(socketID: socketID, userData: userData).utf8))
    }

    /// Whether `auth` is `key:sig` with the app's key and the right signature for the channel.
    /// `channelData` must be the exact string the client sent, never a re-serialisation.
    public static func verifyChannelAuth(
        _ auth: String, key: String, secret: String, socketID: String, channel: String, channelData: String?
    ) -> Bool {
        verify(auth, key: key, secret: secret, signed: channelString(socketID: socketID, channel: channel, channelData: channelData))
    }

    /// Whether `auth` is `key:sig` with the app's key and the right signature for the sign-in.
    public static func verifyUserAuth(_ auth: String, key: String, secret: String, socketID: String, userData: String) -> Bool {
        verify(auth, key: key, secret: secret, signed: userString(socketID: socketID, userData: userData))
    }

    private static func verify(_ auth: String, key: String, secret: String, signed: String) -> Bool {
        let utf8 = Array(auth.utf8)
        guard let colon = utf8.lastIndex(of: UInt8(ascii: ":")) else { return false }
        let givenKey = Array(utf8[..<colon]), givenSignature = Array(utf8[(colon + 1)...])
        let expected = Array(hmacHex(secret: secret, Array(signed.utf8)).utf8)
        // Both comparisons always run, so timing reveals neither which part failed nor where.
        let keyMatches = Digest.constantTimeEqual(givenKey, Array(key.utf8))
        let signatureMatches = Digest.constantTimeEqual(givenSignature, expected)
        return keyMatches && signatureMatches
    }

    /// The `shared_secret` for a `private-encrypted-` channel:
    /// base64(SHA-256(channel name bytes ‖ 32-byte master key)).
    public static func encryptedChannelSharedSecret(channel: String, masterKey: [UInt8]) -> String {
        Base64.encode(Digest.sha256(Array(channel.utf8) + masterKey))
    }

    /// The `X-Pusher-Signature` of a webhook body: hex HMAC-SHA256 of the raw body.
    public static func webhookSignature(secret: String, body: [UInt8]) -> String {
        hmacHex(secret: secret, body)
    }

    /// Whether a webhook signature header matches the body.
    public static func verifyWebhook(signature: String, secret: String, body: [UInt8]) -> Bool {
        Digest.constantTimeEqual(Array(signature.utf8), Array(webhookSignature(secret: secret, body: body).utf8))
    }
}
