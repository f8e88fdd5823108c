extension StoreError {
    /// Runs `body`, replacing a thrown `StoreError` with `code` by `replacement`.
    ///
    /// Turns engine-level failures into domain ones, e.g. a foreign-key violation on a
    /// membership insert into "user not found".
    @discardableResult
    static func remapping<T>(_ code: Code, to replacement: @autoclosure () -> StoreError, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as StoreError where error.code == code {
            throw replacement()
        }
    }
}
