/// A Prometheus text exposition (format 0.0.4), built one metric at a time.
public struct PrometheusText {
    /// The exposition so far.
    public private(set) var text = ""

    /// An empty exposition.
    public init() {}

    /// Adds one sample with its HELP and TYPE lines; `type` is `counter` or `gauge`.
    public mutating func add(_ name: String, _ type: String, _ help: String, _ value: Int) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n\(name) \(value)\n"
    }

    /// Appends lines already in the text format (their HELP and TYPE included).
    mutating func append(_ lines: String) {
        text += lines
    }
}
