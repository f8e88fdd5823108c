/// Converts between the UTF-16 offsets UIKit, AppKit and SwiftUI use (`NSRange`, `String.utf16`)
/// and the Unicode scalar offsets a document is edited at.
enum UTF16Offsets {
    /// The scalar offset of UTF-16 `offset` in `text`.
    /// - Throws: ``ParleyError/Code/invalidArgument`` when `offset` is negative, past the end,
    ///   or between the two halves of a surrogate pair.
    static func scalarOffset(ofUTF16 offset: Int, in text: String) throws(ParleyError) -> Int {
        let units = text.utf16
        guard offset >= 0, offset <= units.count else {
            throw ParleyError(.invalidArgument, "UTF-16 offset \(offset) outside 0...\(units.count)")
        }
        let index = units.index(units.startIndex, offsetBy: offset)
        guard let scalarIndex = index.samePosition(in: text.unicodeScalars) else {
            throw ParleyError(.invalidArgument, "UTF-16 offset \(offset) splits a surrogate pair")
        }
        return text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: scalarIndex)
    }

    /// The UTF-16 offset of scalar `offset` in `text` (clamped to the end).
    static func utf16Offset(ofScalar offset: Int, in text: String) -> Int {
        let scalars = text.unicodeScalars
        let index = scalars.index(scalars.startIndex, offsetBy: max(0, offset), limitedBy: scalars.endIndex) ?? scalars.endIndex
        return text.utf16.distance(from: text.utf16.startIndex, to: index)
    }
}
