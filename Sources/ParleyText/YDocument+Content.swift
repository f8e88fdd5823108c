/// Reading a whole document as values, the way Yjs types read themselves (`toJSON`,
/// `toDelta`): what an export or a REST reader shows.
///
/// - Texts: a string; a text with formatting or embeds: a Quill delta, an array of
///   `{"insert": …, "attributes": {…}}` (attributes left out when none apply).
/// - Maps: objects of their current values; arrays: arrays.
/// - XML: an element is `{"nodeName", "attributes", "children"}`, a fragment
///   `{"children"}`, a hook `{"nodeName", "attributes"}`, XML text reads as a text.
/// - Binary content: ``YValue/binary``; a subdocument: `{"guid": …}`.
///
/// A root type does not say its kind on the wire; it is told from its content (text
/// content: a text; elements: an array, or an XML fragment when they are all XML nodes;
/// keys: a map). A root with nothing visible left whose kind cannot be told reads as
/// ``YValue/null``. Types nested deeper than ``maxReadDepth`` read as null.
extension YDocument {
    /// Nested types deeper than this read as null, so reading never exhausts the stack.
    public static let maxReadDepth = 128

    /// Every root type by name, read as a value.
    public func content() -> [String: YValue] {
        var result: [String: YValue] = [:]
        for (name, type) in rootIndexByName {
            result[name] = value(ofRoot: type)
        }
        return result
    }

    /// The root type `name` read as a value; nil when the document has no such root.
    public func value(root name: String) -> YValue? {
        rootIndexByName[name].map { value(ofRoot: $0) }
    }

    private func value(ofRoot type: Int32) -> YValue {
        switch rootKind(type) {
        case .text: textValue(type, depth: 0)
        case .array: .array(elements(of: type, depth: 0))
        case .xmlFragment: .object(["children": .array(elements(of: type, depth: 0))])
        case .map: .object(mapEntries(of: type, depth: 0))
        default: .null
        }
    }

    /// The kind of a root type, told from what it holds (nil: nothing tells).
    func rootKind(_ type: Int32) -> YTypeKind? {
        var sawElements = false
        var allXML = true
        var current = types[Int(type)].start
        while current >= 0 {
            let item = items[Int(current)]
            switch item.kind {
            case .string, .format, .embed:
                return .text
            case .type where !item.deleted:
                sawElements = true
                let kind = types[item.content].kind
                if kind != .xmlElement && kind != .xmlText && kind != .xmlHook { allXML = false }
            case .any, .json, .binary, .doc:
                if !item.deleted {
                    sawElements = true
                    allXML = false
                }
            default:
                break
            }
            current = item.right
        }
        if sawElements { return allXML ? .xmlFragment : .array }
        return types[Int(type)].map.isEmpty ? nil : .map
    }

    /// A nested type, read by its kind.
    func value(ofType type: Int, depth: Int) -> YValue {
        guard depth < Self.maxReadDepth else { return .null }
        let index = Int32(type)
        switch types[type].kind {
        case .array?: return .array(elements(of: index, depth: depth))
        case .map?: return .object(mapEntries(of: index, depth: depth))
        case .text?, .xmlText?: return textValue(index, depth: depth)
        case .xmlFragment?: return .object(["children": .array(elements(of: index, depth: depth))])
        case .xmlElement?:
            return .object([
                "nodeName": .string(nodeName(of: type)), "attributes": .object(mapEntries(of: index, depth: depth)),
                "children": .array(elements(of: index, depth: depth))
            ])
        case .xmlHook?:
            return .object(["nodeName": .string(nodeName(of: type)), "attributes": .object(mapEntries(of: index, depth: depth))])
        case nil:
            return value(ofRoot: index)
        }
    }

    /// The node name of an XML element or hook (the string after the type ref).
    private func nodeName(of type: Int) -> String {
        var reader = ByteReader(types[type].payload)
        _ = try? reader.readVarUInt()
        return (try? reader.readString()) ?? ""
    }

    /// The visible elements of a type's sequence.
    func elements(of type: Int32, depth: Int) -> [YValue] {
        var result: [YValue] = []
        var current = types[Int(type)].start
        while current >= 0 {
            let item = items[Int(current)]
            if !item.deleted && item.kind.isCountable {
                result += values(of: item, depth: depth)
            }
            current = item.right
        }
        return result
    }

    /// The current value of every key of a type's map.
    func mapEntries(of type: Int32, depth: Int) -> [String: YValue] {
        var result: [String: YValue] = [:]
        for (key, item) in types[Int(type)].map where !items[Int(item)].deleted {
            // A key's value is the last element of its item, as in Yjs.
            if let last = values(of: items[Int(item)], depth: depth).last { result[keys[Int(key)]] = last }
        }
        return result
    }

    /// The elements of one item's content.
    func values(of item: YItem, depth: Int) -> [YValue] {
        switch item.kind {
        case .string:
            return [.string(String(decoding: units[item.content..<(item.content + item.length)], as: UTF16.self))]
        case .any:
            var reader = ByteReader(payloads[item.content])
            var result: [YValue] = []
            for _ in 0..<item.length {
                // The bytes were validated when they arrived.
                result.append((try? YValue.readAny(&reader)) ?? .null)
            }
            return result
        case .json:
            var reader = ByteReader(payloads[item.content])
            var result: [YValue] = []
            for _ in 0..<item.length {
                let text = (try? reader.readString()) ?? "null"
                result.append(text == "undefined" ? .null : .json(text))
            }
            return result
        case .binary:
            var reader = ByteReader(payloads[item.content])
            let length = (try? reader.readBoundedInt()) ?? 0
            return [.binary(Array(payloads[item.content].suffix(length)))]
        case .embed:
            var reader = ByteReader(payloads[item.content])
            return [.json((try? reader.readString()) ?? "null")]
        case .type:
            return [value(ofType: item.content, depth: depth + 1)]
        case .doc:
            var reader = ByteReader(payloads[item.content])
            return [.object(["guid": .string((try? reader.readString()) ?? "")])]
        case .format, .deleted, .gc:
            return []
        }
    }

    /// A text: its string, or a Quill delta when formatting or embeds apply anywhere.
    func textValue(_ type: Int32, depth: Int) -> YValue {
        let delta = self.delta(of: type, depth: depth)
        if delta.allSatisfy({ $0.attributes.isEmpty && $0.text != nil }) {
            return .string(delta.map { $0.text ?? "" }.joined())
        }
        return .array(
            delta.map { operation in
                var object: [String: YValue] = ["insert": operation.text.map(YValue.string) ?? operation.embed ?? .null]
                if !operation.attributes.isEmpty { object["attributes"] = .object(operation.attributes) }
                return .object(object)
            })
    }

    /// One insert of a text's delta: a run of text or one embed, with its attributes.
    struct DeltaInsert {
        var text: String?
        var embed: YValue?
        var attributes: [String: YValue]
    }

    /// The text's delta (Yjs `toDelta`): runs of equally formatted text and embeds.
    func delta(of type: Int32, depth: Int) -> [DeltaInsert] {
        var result: [DeltaInsert] = []
        var attributes: [String: YValue] = [:]
        var run: [UInt16] = []
        func flush() {
            guard !run.isEmpty else { return }
            result.append(DeltaInsert(text: String(decoding: run, as: UTF16.self), attributes: attributes))
            run.removeAll()
        }
        var current = types[Int(type)].start
        while current >= 0 {
            let item = items[Int(current)]
            current = item.right
            guard !item.deleted else { continue }
            switch item.kind {
            case .string:
                run += units[item.content..<(item.content + item.length)]
            case .format:
                var reader = ByteReader(payloads[item.content])
                guard let key = try? reader.readString(), let value = try? reader.readString() else { continue }
                guard (value == "null" ? nil : YValue.json(value)) != attributes[key] else { continue }
                flush()
                attributes[key] = value == "null" ? nil : .json(value)
            case .embed, .type:
                flush()
                for embed in values(of: item, depth: depth) {
                    result.append(DeltaInsert(embed: embed, attributes: attributes))
                }
            default:
                continue
            }
        }
        flush()
        return result
    }
}
