/// The per-user rate of each kind of write in one app (`limits.rates` in the config file).
public struct UserWriteRates: Sendable, Hashable {
    private var overrides: [UserWrite: RateLimit] = [:]

    /// Every kind at its default rate.
    public init() {}

    /// Every kind unlimited (tests with a clock that hardly moves, benchmarks).
    public static var unlimited: UserWriteRates {
        var rates = UserWriteRates()
        for write in UserWrite.allCases { rates[write] = .unlimited }
        return rates
    }

    /// The rate of one kind of write.
    public subscript(_ write: UserWrite) -> RateLimit {
        get { overrides[write] ?? write.defaultLimit }
        set { overrides[write] = newValue }
    }
}
