/// A command for a Redis server: the array of bulk strings every Redis command is on the wire.
public struct RESPCommand: Sendable, Equatable {
    /// The command name and its arguments, binary-safe.
    public var arguments: [[UInt8]]

    /// Creates a command from binary arguments (`["PUBLISH", channel, payload]`).
    public init(_ arguments: [[UInt8]]) {
        self.arguments = arguments
    }

    /// Creates a command from text arguments (`RESPCommand("SUBSCRIBE", "parley:events")`).
    public init(_ name: String, _ arguments: String...) {
        self.arguments = [Array(name.utf8)] + arguments.map { Array($0.utf8) }
    }

    /// Appends the command's wire form (`*N` then one `$len` bulk per argument).
    public func encode(into out: inout [UInt8]) {
        out.append(UInt8(ascii: "*"))
        out.append(contentsOf: String(arguments.count).utf8)
        out.append(contentsOf: [13, 10])
        for argument in arguments {
            out.append(UInt8(ascii: "$"))
            out.append(contentsOf: String(argument.count).utf8)
            out.append(contentsOf: [13, 10])
            out.append(contentsOf: argument)
            out.append(contentsOf: [13, 10])
        }
    }

    /// The command's wire form.
    public var encoded: [UInt8] {
        var out: [UInt8] = []
        encode(into: &out)
        return out
    }
}
