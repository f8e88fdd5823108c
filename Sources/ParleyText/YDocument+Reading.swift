/// Reading content back out of a generic document.
extension YDocument {
    /// The visible characters of the root type `name` read as a text (formatting marks,
    /// embeds and nested types left out); empty when the root holds nothing.
    public func text(root name: String) -> String {
        guard let type = rootIndexByName[name] else { return "" }
        var buffer: [UInt16] = []
        var current = types[Int(type)].start
        while current >= 0 {
            let item = items[Int(current)]
            if item.kind == .string && !item.deleted {
                buffer.append(contentsOf: units[item.content..<(item.content + item.length)])
            }
            current = item.right
        }
        return String(decoding: buffer, as: UTF16.self)
    }
}
