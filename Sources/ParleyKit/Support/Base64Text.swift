import Foundation

/// Base64 through Foundation, so the portable core needs no libcrypto.
package enum Base64Text {
    /// The standard (padded) Base64 of `bytes`.
    package static func encode(_ bytes: some Collection<UInt8>) -> String {
        Data(bytes).base64EncodedString()
    }

    /// The bytes of standard Base64 text, or nil when it is not Base64.
    package static func decode(_ text: String) -> [UInt8]? {
        Data(base64Encoded: text).map { [UInt8]($0) }
    }
}
