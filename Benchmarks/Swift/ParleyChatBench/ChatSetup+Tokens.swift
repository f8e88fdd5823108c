import Glibc
import ParleyWire

/// User tokens minted by the benchmark itself, for a server that runs a config file (no
/// `/v1/dev/token`): HS256 over the app secret, `sub` the user, `aud` the app id, valid a day.
extension ChatSetup {
    static func mint(app: String, secret: String, user: String) -> String {
        let now = Int(time(nil))
        let header = base64URL(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let claims = JSONWriter.serialize(
            .object(["sub": .string(user), "aud": .string(app), "iat": .int(now), "exp": .int(now + 86_400)]))
        let input = header + "." + base64URL(claims)
        return input + "." + base64URL(Digest.hmacSHA256(key: Array(secret.utf8), Array(input.utf8)))
    }

    private static func base64URL(_ bytes: [UInt8]) -> String {
        String(
            Base64.encode(bytes).compactMap { character -> Character? in
                switch character {
                case "+": "-"
                case "/": "_"
                case "=": nil
                default: character
                }
            })
    }
}
