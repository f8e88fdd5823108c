import ParleyText

/// A caret position tied to the character on its left, so it keeps its place when others
/// edit elsewhere, and a user typing at it keeps typing after their own last character even
/// when someone else inserts at the same spot.
enum StickyPosition: Sendable, Hashable {
    /// Before everything.
    case start
    /// Right after the character with this id.
    case after(ItemID)

    /// The sticky form of scalar `position` in `document`.
    static func at(_ position: Int, in document: YDocument) -> StickyPosition {
        guard position > 0,
            let id = document.itemID(atScalar: min(position, document.count) - 1, inText: DocumentReplica.textRoot)
        else { return .start }
        return .after(id)
    }

    /// The scalar position now; where the character was if it was deleted since.
    func position(in document: YDocument) -> Int {
        switch self {
        case .start:
            return 0
        case .after(let id):
            guard let found = document.scalarPosition(of: id, inText: DocumentReplica.textRoot) else { return 0 }
            return min(found.isDeleted ? found.position : found.position + 1, document.count)
        }
    }
}
