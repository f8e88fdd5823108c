import Foundation

/// Base64 through Foundation, so the portable core needs no libcrypto.
enum Base64Text {
    /// The standard (padded) Base64 of `bytes`.
    static func encode(_ bytes: some Collection<UInt8>) -> String {
        Data(bytes).base64EncodedString()
    }

    /// The bytes of standard Base64 text, or nil when it is not Base64.
    static func decode(_ text: String) -> [UInt8]? {
        Data(base64Encoded: text).map { [UInt8]($0) }
    }
}
