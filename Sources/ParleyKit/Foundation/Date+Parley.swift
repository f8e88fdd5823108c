import Foundation

extension Date {
    /// The date of a Parley timestamp (milliseconds since the Unix epoch).
    public init(parleyMilliseconds milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// This date as a Parley timestamp (milliseconds since the Unix epoch, rounded down).
    public var parleyMilliseconds: Int64 {
        Int64((timeIntervalSince1970 * 1000).rounded(.down))
    }
}
