/// One setting the JSON config file may hold: its name, the shape of its value, its default
/// and what it does. ``ConfigSchema`` lists them all; validation and the reference page
/// (`docs/configuration.md`) are both read off that one table.
struct ConfigKey: Sendable {
    /// The shape of a setting's value.
    indirect enum Kind: Sendable {
        /// A string.
        case string
        /// A whole number within `range`.
        case integer(ClosedRange<Int>)
        /// A number (fractions allowed) within `range`.
        case number(ClosedRange<Double>)
        /// true or false.
        case boolean
        /// An array of strings.
        case strings
        /// An object with these members.
        case object([ConfigKey])
        /// An array of objects, each with these members.
        case objects([ConfigKey])
        /// An array whose items are strings or objects with these members.
        case stringsOrObjects([ConfigKey])
    }

    /// The member name.
    let name: String
    /// The shape of its value.
    let kind: Kind
    /// The default as the reference page shows it; nil: required or none.
    let defaultValue: String?
    /// Whether the setting must be present.
    let required: Bool
    /// One or two sentences for the reference page.
    let help: String

    init(_ name: String, _ kind: Kind, default defaultValue: String? = nil, required: Bool = false, _ help: String) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.required = required
        self.help = help
    }

    /// The members of an object or of each object in an array; empty for plain values.
    var members: [ConfigKey] {
        switch kind {
        case .object(let members), .objects(let members), .stringsOrObjects(let members): members
        default: []
        }
    }
}
