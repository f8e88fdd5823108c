/// A token-bucket rate: `perSecond` tokens return every second, at most `burst` are held.
///
/// A rate of 0 (or less) admits everything.
public struct RateLimit: Sendable, Hashable, CustomStringConvertible {
    /// Tokens added per second (the sustained rate).
    public var perSecond: Double
    /// The most tokens the bucket holds (what may be spent at once after a pause).
    public var burst: Double

    /// Creates a rate; `burst` is raised to 1 so a positive rate can ever admit anything.
    public init(perSecond: Double, burst: Double) {
        self.perSecond = perSecond
        self.burst = max(burst, 1)
    }

    /// The rate that admits everything.
    public static let unlimited = RateLimit(perSecond: 0, burst: 1)

    /// Whether this rate admits everything.
    public var isUnlimited: Bool { perSecond <= 0 }

    public var description: String { isUnlimited ? "unlimited" : "\(perSecond)/s (burst \(burst))" }
}
