/// Argument checks against `StoreLimits`, run before an operation is queued.
extension SQLChatStore {
    func validateIdentifier(_ value: String, _ what: String) throws(StoreError) {
        guard !value.isEmpty else { throw StoreError(.invalidArgument, "\(what) must not be empty") }
        guard value.utf8.count <= limits.shortTextCharacters else {
            throw StoreError(.invalidArgument, "\(what) is longer than \(limits.shortTextCharacters) bytes")
        }
    }

    func validateName(_ value: String?, _ what: String) throws(StoreError) {
        guard let value else { return }
        guard value.count <= limits.shortTextCharacters else {
            throw StoreError(.invalidArgument, "\(what) is longer than \(limits.shortTextCharacters) characters")
        }
    }

    func validateCustomData(_ value: String?) throws(StoreError) {
        guard let value else { return }
        guard value.utf8.count <= limits.customDataBytes else {
            throw StoreError(.invalidArgument, "custom data is \(value.utf8.count) bytes, more than the limit of \(limits.customDataBytes)")
        }
    }

    func validateParts(_ parts: [MessagePart]) throws(StoreError) {
        guard !parts.isEmpty else { throw StoreError(.invalidArgument, "a message needs at least one part") }
        guard parts.count <= limits.partsPerMessage else {
            throw StoreError(.invalidArgument, "a message may have at most \(limits.partsPerMessage) parts, not \(parts.count)")
        }
        for part in parts {
            switch part {
            case .text(let text):
                guard !text.isEmpty else { throw StoreError(.invalidArgument, "a text part must not be empty") }
                // Counting characters walks the string; the byte count bounds it cheaply first.
                if text.utf8.count > limits.textCharacters, text.count > limits.textCharacters {
                    throw StoreError(.invalidArgument, "a text part may have at most \(limits.textCharacters) characters")
                }
            case .attachment(let id):
                try validateIdentifier(id, "attachment id")
            case .url(let url):
                try validateIdentifier(url, "url")
            case .file(let file):
                try validateIdentifier(file.attachmentID, "attachment id")
            }
        }
    }

    /// A page size within 1…`maximum`.
    func clampedLimit(_ limit: Int, maximum: Int) -> Int {
        min(max(limit, 1), maximum)
    }
}
