extension ConfigSchema {
    /// `docs/configuration.md`: every setting of the table, section by section. Generated
    /// (`parley check-config --print-reference > docs/configuration.md`); a test keeps the
    /// page equal to this text.
    static var referenceMarkdown: String {
        var lines = [
            "# Configuration file reference",
            "",
            "<!-- Generated from the server's own table of settings (Sources/ParleyServer/Config/ConfigSchema.swift):",
            "     parley check-config --print-reference > docs/configuration.md -->",
            "",
            "`parley serve --config FILE` reads one JSON object. Members not listed here are refused",
            "(with the nearest known name suggested), and so are values of the wrong type or range;",
            "`parley check-config FILE` checks a file without starting a server (exit 0 when it is",
            "valid, 1 with one line per problem, each with its line and column, when not).",
            "A `null` value counts as absent. Command-line flags and their `PARLEY_*` environment",
            "variables win over the file where both exist.",
            ""
        ]
        section(root, path: "$", title: "Top level", into: &lines)
        return lines.joined(separator: "\n") + "\n"
    }

    private static func section(_ members: [ConfigKey], path: String, title: String, into lines: inout [String]) {
        lines += ["## \(title) (`\(path)`)", "", "| key | type | default | description |", "|---|---|---|---|"]
        for key in members {
            let fallback = key.required ? "required" : key.defaultValue.map { "`\($0)`" } ?? "none"
            lines.append("| `\(key.name)` | \(typeText(key.kind)) | \(fallback) | \(key.help) |")
        }
        lines.append("")
        var described: [[String]] = []
        for key in members {
            switch key.kind {
            case .object(let inner):
                // Siblings of one shape (the kinds of `rates`) share one section.
                let shape = inner.map(\.name)
                guard !described.contains(shape) else { continue }
                described.append(shape)
                let alike = members.filter { sibling in
                    if case .object(let other) = sibling.kind { other.map(\.name) == shape } else { false }
                }
                if alike.count > 1 {
                    let names = alike.map { "`\($0.name)`" }.joined(separator: ", ")
                    section(inner, path: "\(path).*", title: "each of \(names)", into: &lines)
                } else {
                    section(inner, path: "\(path).\(key.name)", title: "`\(key.name)`", into: &lines)
                }
            case .objects(let inner):
                section(inner, path: "\(path).\(key.name)[]", title: "each of `\(key.name)`", into: &lines)
            case .stringsOrObjects(let inner):
                section(inner, path: "\(path).\(key.name)[]", title: "each object in `\(key.name)`", into: &lines)
            default:
                break
            }
        }
    }

    private static func typeText(_ kind: ConfigKey.Kind) -> String {
        switch kind {
        case .string: "string"
        case .boolean: "boolean"
        case .integer(let range): "integer \(range.lowerBound)…\(range.upperBound)"
        case .number(let range): "number \(plain(range.lowerBound))…\(plain(range.upperBound))"
        case .strings: "array of strings"
        case .object: "object"
        case .objects: "array of objects"
        case .stringsOrObjects: "array of strings or objects"
        }
    }
}
