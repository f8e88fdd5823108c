import ParleyText
import ParleyWireCore

/// A value in a document's maps and arrays: JSON (null, booleans, numbers, strings,
/// arrays, objects) and bytes, as Yjs stores them (lib0 "any").
public typealias DocumentValue = YValue

/// Named texts, maps and arrays: a document holds any number of root types, each by name,
/// as Yjs apps address them (`doc.getText("title")`, `doc.getMap("meta")`,
/// `doc.getArray("checklist")`). Every edit takes effect at once locally and goes to the
/// server like the text edits; ``changes()`` tells which roots changed.
extension DocumentSession {
    // MARK: Reading

    /// Every change of the content, local or remote, after it happened (no replay).
    public nonisolated func changes() -> AsyncStream<DocumentChange> { changeHub.stream() }

    /// The text root `name` (empty when it does not exist).
    public func text(named name: String) -> String { replica.document.text(root: name) }

    /// The number of Unicode scalars in the text root `name`.
    public func count(ofText name: String) -> Int { replica.document.scalarCount(ofText: name) }

    /// The current entries of the map root `name` (empty when it does not exist).
    public func map(named name: String) -> [String: DocumentValue] {
        guard case .object(let entries)? = replica.document.value(root: name) else { return [:] }
        return entries.mapValues(parsed)
    }

    /// The elements of the array root `name` (empty when it does not exist).
    public func array(named name: String) -> [DocumentValue] {
        guard case .array(let elements)? = replica.document.value(root: name) else { return [] }
        return elements.map(parsed)
    }

    // MARK: Editing

    /// Inserts `text` at scalar `position` of the text root `name`.
    /// - Throws: ``ParleyError/Code/invalidArgument`` unless `0 <= position <= count`.
    public func insert(_ text: String, at position: Int, inText name: String) throws(ParleyError) {
        try apply { document throws(ParleyTextError) in try document.insertText(text, at: position, inText: name) }
    }

    /// Deletes `count` scalars from scalar `position` of the text root `name`.
    /// - Throws: ``ParleyError/Code/invalidArgument`` unless the range lies in the text.
    public func delete(at position: Int, count: Int, inText name: String) throws(ParleyError) {
        try apply { document throws(ParleyTextError) in try document.deleteText(at: position, count: count, inText: name) }
    }

    /// Sets `key` of the map root `name` to `value`.
    public func setValue(_ value: DocumentValue, forKey key: String, inMap name: String) throws(ParleyError) {
        try apply { document throws(ParleyTextError) in document.setValue(value, forKey: key, inMap: name) }
    }

    /// Removes `key` from the map root `name`.
    public func removeValue(forKey key: String, inMap name: String) throws(ParleyError) {
        try apply { document throws(ParleyTextError) in document.removeValue(forKey: key, inMap: name) }
    }

    /// Inserts `values` at `index` of the array root `name`.
    /// - Throws: ``ParleyError/Code/invalidArgument`` unless `0 <= index <= count`.
    public func insert(_ values: [DocumentValue], at index: Int, inArray name: String) throws(ParleyError) {
        try apply { document throws(ParleyTextError) in try document.insert(values, at: index, inArray: name) }
    }

    /// Appends `values` to the array root `name`.
    public func append(_ values: [DocumentValue], toArray name: String) throws(ParleyError) {
        try apply { document throws(ParleyTextError) in
            try document.insert(values, at: document.elementCount(ofArray: name), inArray: name)
        }
    }

    /// Removes `count` elements from `index` of the array root `name`.
    /// - Throws: ``ParleyError/Code/invalidArgument`` unless the range lies in the array.
    public func remove(at index: Int, count: Int = 1, fromArray name: String) throws(ParleyError) {
        try apply { document throws(ParleyTextError) in try document.deleteElements(at: index, count: count, inArray: name) }
    }

    // MARK: Helpers

    private func apply(_ body: (inout YDocument) throws(ParleyTextError) -> Void) throws(ParleyError) {
        if case .closed(let reason) = state { throw ParleyError(.cancelled, "the document session is closed: \(reason)") }
        send(try replica.edit(body))
        publish()
    }

    /// JSON text some Yjs content keeps (legacy arrays, embeds) as a value; text that is not
    /// JSON keeps its place as null and is reported to the diagnostics hook.
    func parsed(_ value: DocumentValue) -> DocumentValue {
        switch value {
        case .json(let text):
            do {
                return Self.documentValue(try JSONParser.parse(text))
            } catch {
                diagnostics?(
                    ParleyDiagnostic(.decoding, ParleyError(.decoding, "document \(url): JSON content \(text.prefix(40)) is \(error)")))
                return .null
            }
        case .array(let elements): return .array(elements.map(parsed))
        case .object(let entries): return .object(entries.mapValues(parsed))
        default: return value
        }
    }

    private static func documentValue(_ json: JSONValue) -> DocumentValue {
        switch json {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .number(let text): return Int64(text).map(DocumentValue.integer) ?? .number(Double(text) ?? 0)
        case .string(let value): return .string(value)
        case .array(let values): return .array(values.map(documentValue))
        case .object(let object):
            var entries: [String: DocumentValue] = [:]
            for (key, value) in object { entries[key] = documentValue(value) }
            return .object(entries)
        }
    }
}
