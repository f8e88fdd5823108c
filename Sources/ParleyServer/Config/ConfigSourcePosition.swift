/// A 1-based line and column in a text file (columns count characters, not bytes).
struct ConfigSourcePosition: Sendable, Equatable {
    let line: Int
    let column: Int

    /// The position of byte `offset` of `bytes` (UTF-8).
    init(offset: Int, in bytes: [UInt8]) {
        var line = 1
        var column = 1
        for byte in bytes.prefix(min(offset, bytes.count)) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        self.line = line
        self.column = column
    }

    init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}
