import ParleyPlatform

/// The process environment without Foundation.
public enum ProcessInfoLite {
    /// Every `NAME=value` pair of the environment.
    public static func environment() -> [(String, String)] {
        var pairs: [(String, String)] = []
        var cursor = environ
        while let entry = cursor.pointee {
            let text = String(cString: entry)
            if let eq = text.firstIndex(of: "=") {
                pairs.append((String(text[..<eq]), String(text[text.index(after: eq)...])))
            }
            cursor += 1
        }
        return pairs
    }
}
