/// One field of a partial update: leave it as it is, or set it to a new value.
///
/// For optional fields, `.set(nil)` clears the field.
public enum Patch<Value: Sendable & Hashable>: Sendable, Hashable {
    /// Leave the field unchanged.
    case keep
    /// Replace the field with this value.
    case set(Value)

    /// The new value, or `current` when the field is kept.
    public func applied(to current: Value) -> Value {
        switch self {
        case .keep: return current
        case .set(let value): return value
        }
    }
}
