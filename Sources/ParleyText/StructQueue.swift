/// Received structs of one client in clock order, consumed from `head` as they integrate,
/// with the UTF-16 text their string structs refer to.
struct StructQueue {
    var structs: [WireStruct]
    var head = 0
    var units: [UInt16]

    init(structs: [WireStruct], units: [UInt16]) {
        self.structs = structs
        self.units = units
        sortIfNeeded()
    }

    /// Adds structs whose text lies in `source`, copying just that text.
    mutating func append(_ group: ArraySlice<WireStruct>, units source: [UInt16]) {
        for var value in group {
            if value.kind == .string {
                let start = units.count
                units.append(contentsOf: source[value.textStart..<(value.textStart + value.length)])
                value.textStart = start
            }
            structs.append(value)
        }
        sortIfNeeded()
    }

    private mutating func sortIfNeeded() {
        var sorted = true
        var index = head + 1
        while index < structs.count {
            if structs[index - 1].clock > structs[index].clock {
                sorted = false
                break
            }
            index += 1
        }
        if !sorted {
            structs[head...].sort { $0.clock < $1.clock }
        }
    }

    /// Drops consumed structs and unreferenced text once they are the larger part.
    mutating func compactIfMostlyConsumed() {
        guard head * 2 >= structs.count else { return }
        var kept: [WireStruct] = []
        var keptUnits: [UInt16] = []
        kept.reserveCapacity(structs.count - head)
        for var value in structs[head...] {
            if value.kind == .string {
                let start = keptUnits.count
                keptUnits.append(contentsOf: units[value.textStart..<(value.textStart + value.length)])
                value.textStart = start
            }
            kept.append(value)
        }
        structs = kept
        units = keptUnits
        head = 0
    }
}
