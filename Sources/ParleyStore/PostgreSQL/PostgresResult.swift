import CPostgres

/// A query result from libpq; owns its `PGresult*` and clears it on release.
final class PostgresResult {
    let handle: OpaquePointer

    /// Takes ownership of `handle`.
    init(_ handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        PQclear(handle)
    }

    /// The number of rows in the result.
    var rowCount: Int { Int(PQntuples(handle)) }

    /// The number of rows the command changed (INSERT/UPDATE/DELETE), 0 when not applicable.
    var affectedRows: Int {
        guard let text = PQcmdTuples(handle) else { return 0 }
        return Int(String(cString: text)) ?? 0
    }

    /// The server's SQLSTATE for a failed command, or "" when there is none.
    var sqlState: String {
        guard let state = PQresultErrorField(handle, Int32(UInt8(ascii: "C"))) else { return "" }
        return String(cString: state)
    }

    /// The server's error message for a failed command.
    var errorMessage: String {
        guard let message = PQresultErrorMessage(handle) else { return "" }
        return String(cString: message).trimmingTrailingNewlines()
    }
}

/// One row of a text-format `PostgresResult`, read column by column.
struct PostgresRow: SQLRow {
    let result: PostgresResult
    let row: Int32

    private func bytes(_ column: Int) -> UnsafeBufferPointer<UInt8> {
        let length = Int(PQgetlength(result.handle, row, Int32(column)))
        guard let value = PQgetvalue(result.handle, row, Int32(column)) else {
            return UnsafeBufferPointer(start: nil, count: 0)
        }
        return UnsafeBufferPointer(start: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self), count: length)
    }

    func isNull(_ column: Int) -> Bool {
        PQgetisnull(result.handle, row, Int32(column)) != 0
    }

    func int64(_ column: Int) -> Int64 {
        var value: Int64 = 0
        var negative = false
        for byte in bytes(column) {
            switch byte {
            case UInt8(ascii: "-"): negative = true
            case UInt8(ascii: "t"): return 1  // boolean true
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value &* 10 &+ Int64(byte &- UInt8(ascii: "0"))
            default: break
            }
        }
        return negative ? -value : value
    }

    func double(_ column: Int) -> Double {
        Double(text(column)) ?? 0
    }

    func text(_ column: Int) -> String {
        String(decoding: bytes(column), as: UTF8.self)
    }

    /// Decodes the `\x…` hex text form of BYTEA.
    func blob(_ column: Int) -> [UInt8] {
        let hex = bytes(column)
        guard hex.count >= 2, hex[0] == UInt8(ascii: "\\"), hex[1] == UInt8(ascii: "x") else { return Array(hex) }
        var output: [UInt8] = []
        output.reserveCapacity((hex.count - 2) / 2)
        var index = 2
        while index + 1 < hex.count {
            output.append(Self.nibble(hex[index]) << 4 | Self.nibble(hex[index + 1]))
            index += 2
        }
        return output
    }

    private static func nibble(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return 0
        }
    }
}

extension String {
    /// The string without trailing newlines (libpq messages end with one).
    func trimmingTrailingNewlines() -> String {
        var copy = self
        while copy.last == "\n" { copy.removeLast() }
        return copy
    }
}
