/// Percentiles of a set of latencies (exact: every sample is kept and sorted).
struct LatencySummary {
    /// Number of samples.
    let count: Int
    let p50: Double
    let p90: Double
    let p99: Double
    let p999: Double
    let max: Double
    let mean: Double

    /// Summarises samples in nanoseconds; figures are in milliseconds.
    init(nanoseconds samples: [UInt64]) {
        let sorted = samples.sorted()
        count = sorted.count
        func quantile(_ q: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            let rank = Int((q * Double(sorted.count)).rounded(.up)) - 1
            return Double(sorted[Swift.max(0, Swift.min(sorted.count - 1, rank))]) / 1e6
        }
        p50 = quantile(0.5)
        p90 = quantile(0.9)
        p99 = quantile(0.99)
        p999 = quantile(0.999)
        max = Double(sorted.last ?? 0) / 1e6
        mean = sorted.isEmpty ? 0 : Double(sorted.reduce(0, +)) / Double(sorted.count) / 1e6
    }

    /// `p50=… p90=… p99=… max=…` in ms, for people.
    var text: String {
        "p50 \(Self.ms(p50))  p90 \(Self.ms(p90))  p99 \(Self.ms(p99))  p99.9 \(Self.ms(p999))  max \(Self.ms(max)) ms"
    }

    /// The RESULT fields under `prefix`.
    func fields(_ prefix: String) -> [(String, String)] {
        [
            ("\(prefix)_p50_ms", Self.ms(p50)), ("\(prefix)_p90_ms", Self.ms(p90)), ("\(prefix)_p99_ms", Self.ms(p99)),
            ("\(prefix)_p999_ms", Self.ms(p999)), ("\(prefix)_max_ms", Self.ms(max)), ("\(prefix)_samples", String(count))
        ]
    }

    /// Milliseconds with three decimals.
    static func ms(_ value: Double) -> String { fixed(value, decimals: 3) }

    /// A number with a fixed count of decimals (no Foundation formatting).
    static func fixed(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int(scaled / scale)
        var fraction = String(Int(scaled - Double(whole) * scale))
        while fraction.count < decimals { fraction = "0" + fraction }
        return (value < 0 && scaled > 0 ? "-" : "") + String(whole) + (decimals > 0 ? "." + fraction : "")
    }
}
