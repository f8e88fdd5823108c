import ParleyStore

/// A documents-service failure with a stable, documented code.
public struct DocumentsError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The stable machine-readable kind of a failure.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The document (or its owner room) does not exist in this app.
        case notFound = "document_not_found"
        /// The user may not open this document (not a room member, not on the access list).
        case forbidden
        /// A document with that name already exists in the same room (or among access-list documents).
        case alreadyExists = "already_exists"
        /// An argument breaks a limit (empty name, too many users…).
        case invalidArgument = "invalid_argument"
        /// The bytes are not a well-formed y-protocols message.
        case malformedMessage = "malformed_message"
        /// The update is not a valid Yjs update (format v1); nothing was changed.
        case invalidUpdate = "invalid_update"
        /// No longer raised: updates whose dependencies have not arrived wait in the server's
        /// replica, as in Yjs. Kept so the code stays reserved.
        case missingDependencies = "missing_dependencies"
        /// The update or message is larger than the configured limit.
        case updateTooLarge = "update_too_large"
        /// Accepting the update would make the document larger than the configured limit.
        case documentTooLarge = "document_too_large"
        /// An awareness update is malformed, too large, or not JSON.
        case invalidAwareness = "invalid_awareness"
        /// The store failed; the change was not acknowledged (the document reloads on next use).
        case storageUnavailable = "storage_unavailable"
        /// The open document was closed (evicted or reset) while the call was under way.
        case documentClosed = "document_closed"
        /// The user created documents faster than the app's `limits.rates.documents`; retry later.
        case rateLimited = "rate_limited"
    }

    /// The stable kind of the failure.
    public var code: Code
    /// A human-readable explanation; not stable, for logs and error bodies.
    public var message: String

    /// Creates an error of the given kind.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The code and message together, for logs.
    public var description: String { "\(code.rawValue): \(message)" }

    /// The service's reading of a store failure.
    init(store error: any Error) {
        guard let error = error as? StoreError else {
            self.init(.storageUnavailable, "\(error)")
            return
        }
        switch error.code {
        case .notFound, .foreignKeyViolation: self.init(.notFound, error.message)
        case .alreadyExists: self.init(.alreadyExists, error.message)
        case .invalidArgument: self.init(.invalidArgument, error.message)
        default: self.init(.storageUnavailable, error.description)
        }
    }
}
