import ParleyWire

extension ConfigSchema {
    /// Everything the table can tell is wrong with a parsed config file: unknown members
    /// (with the nearest known name), values of the wrong shape or out of range, missing
    /// required members. Positions are not filled in here (see ``ConfigFile``).
    static func problems(in value: JSONValue) -> [ConfigProblem] {
        var found: [ConfigProblem] = []
        check(value, against: .object(root), path: "$", into: &found)
        return found
    }

    private static func check(_ value: JSONValue, against kind: ConfigKey.Kind, path: String, into found: inout [ConfigProblem]) {
        if value == .null { return }
        switch kind {
        case .string:
            if value.stringValue == nil { found.append(ConfigProblem(path: path, message: "must be a string")) }
        case .boolean:
            if value.boolValue == nil { found.append(ConfigProblem(path: path, message: "must be true or false")) }
        case .integer(let range):
            // Readers that take a number where a string is named (an app id) are lenient.
            guard let number = value.intValue, range.contains(number) else {
                found.append(ConfigProblem(path: path, message: "must be an integer in \(range.lowerBound)...\(range.upperBound)"))
                return
            }
        case .number(let range):
            guard let number = value.doubleValue, range.contains(number) else {
                found.append(
                    ConfigProblem(path: path, message: "must be a number in \(plain(range.lowerBound))...\(plain(range.upperBound))"))
                return
            }
        case .strings:
            guard let list = value.arrayValue else {
                found.append(ConfigProblem(path: path, message: "must be an array of strings"))
                return
            }
            for (i, item) in list.enumerated() where item.stringValue == nil {
                found.append(ConfigProblem(path: "\(path)[\(i)]", message: "must be a string"))
            }
        case .stringsOrObjects(let members):
            guard let list = value.arrayValue else {
                found.append(ConfigProblem(path: path, message: "must be an array of strings or objects"))
                return
            }
            for (i, item) in list.enumerated() where item.stringValue == nil {
                guard item.objectValue != nil else {
                    found.append(ConfigProblem(path: "\(path)[\(i)]", message: "must be a string or an object"))
                    continue
                }
                checkObject(item, members: members, path: "\(path)[\(i)]", into: &found)
            }
        case .object(let members):
            checkObject(value, members: members, path: path, into: &found)
        case .objects(let members):
            guard let list = value.arrayValue else {
                found.append(ConfigProblem(path: path, message: "must be an array of objects"))
                return
            }
            for (i, item) in list.enumerated() {
                checkObject(item, members: members, path: "\(path)[\(i)]", into: &found)
            }
        }
    }

    private static func checkObject(_ value: JSONValue, members: [ConfigKey], path: String, into found: inout [ConfigProblem]) {
        guard let object = value.objectValue else {
            found.append(ConfigProblem(path: path, message: "must be an object"))
            return
        }
        for (name, member) in object {
            guard let key = members.first(where: { $0.name == name }) else {
                found.append(ConfigProblem(path: "\(path).\(name)", message: unknownMessage(name, siblings: members)))
                continue
            }
            // An app id may be written as a number; the app reader accepts it.
            if key.name == "id", member.intValue != nil { continue }
            check(member, against: key.kind, path: "\(path).\(name)", into: &found)
        }
        for key in members where key.required && (object[key.name] ?? .null) == .null {
            found.append(ConfigProblem(path: "\(path).\(key.name)", message: "is required"))
        }
    }

    /// "unknown setting", with the likeliest intended one: a sibling a typo or two away, else
    /// the same name where it belongs in another section.
    static func unknownMessage(_ name: String, siblings: [ConfigKey]) -> String {
        if let near = nearest(name, among: siblings.map(\.name)) {
            return "unknown setting; did you mean \"\(near)\"?"
        }
        if let elsewhere = placesOf(name).first {
            return "unknown setting here; \"\(name)\" belongs in \(elsewhere)"
        }
        let known = siblings.map(\.name).joined(separator: ", ")
        return "unknown setting (known here: \(known))"
    }

    /// The closest of `candidates` to `name`, if it is close enough to be a typo (at most a
    /// third of the name's length apart, and at most 3 edits).
    static func nearest(_ name: String, among candidates: [String]) -> String? {
        let bound = min(3, max(1, name.count / 3))
        let scored = candidates.map { ($0, editDistance(name.lowercased(), $0)) }.filter { $0.1 <= bound }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// Paths (like `$.http`) of the sections that have a member called `name`.
    static func placesOf(_ name: String) -> [String] {
        var places: [String] = []
        func walk(_ members: [ConfigKey], _ path: String) {
            if members.contains(where: { $0.name == name }) { places.append(path) }
            for key in members {
                switch key.kind {
                case .object(let inner): walk(inner, "\(path).\(key.name)")
                case .objects(let inner), .stringsOrObjects(let inner): walk(inner, "\(path).\(key.name)[]")
                default: break
                }
            }
        }
        walk(root, "$")
        return places
    }

    /// Levenshtein distance over characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var row = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = row
        }
        return previous[b.count]
    }
}
