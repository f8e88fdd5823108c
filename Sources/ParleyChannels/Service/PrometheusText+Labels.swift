extension PrometheusText {
    /// Starts a metric family: its HELP and TYPE lines (`counter`, `gauge`, `histogram`).
    public mutating func family(_ name: String, _ type: String, _ help: String) {
        append("# HELP \(name) \(help)\n# TYPE \(name) \(type)\n")
    }

    /// One sample line, `name{label="value",…} value`; label values are escaped.
    public mutating func sample(_ name: String, _ labels: [(String, String)] = [], _ value: String) {
        append(name)
        if !labels.isEmpty {
            append("{" + labels.map { "\($0.0)=\"\(Self.escape($0.1))\"" }.joined(separator: ",") + "}")
        }
        append(" \(value)\n")
    }

    /// One sample with a whole-number value.
    public mutating func sample(_ name: String, _ labels: [(String, String)] = [], _ value: Int) {
        sample(name, labels, String(value))
    }

    /// A histogram's lines under `labels`: one `_bucket` per bound (`le` as written in
    /// `bounds`) and `+Inf`, then `_sum` and `_count`. `counts` are per bucket, not
    /// cumulative, the open bucket last; `sum` is already formatted.
    public mutating func histogram(_ name: String, _ labels: [(String, String)], bounds: [String], counts: [Int], sum: String) {
        precondition(counts.count == bounds.count + 1, "one count per bound plus the open bucket")
        var running = 0
        for (index, count) in counts.enumerated() {
            running += count
            sample(name + "_bucket", labels + [("le", index < bounds.count ? bounds[index] : "+Inf")], running)
        }
        sample(name + "_sum", labels, sum)
        sample(name + "_count", labels, running)
    }

    /// A label value as the text format requires: backslash, double quote and line feed escaped.
    public static func escape(_ value: String) -> String {
        guard value.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n") }) else {
            return value
        }
        var out = ""
        for character in value.unicodeScalars {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// `numerator / denominator` as a decimal with up to six fractional digits, without
    /// floating point (`decimal(150, 100)` is `1.5`); for seconds from ticks or microseconds.
    public static func decimal(_ numerator: Int, _ denominator: Int) -> String {
        precondition(denominator > 0, "a positive denominator")
        let sign = numerator < 0 ? "-" : ""
        let magnitude = numerator.magnitude
        let whole = magnitude / UInt(denominator)
        let micros = (magnitude % UInt(denominator)) * 1_000_000 / UInt(denominator)
        guard micros > 0 else { return "\(sign)\(whole)" }
        var fraction = String(micros)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(sign)\(whole).\(fraction)"
    }
}
