/// A failure the backend answers with: an HTTP status and a stable code.
struct BackendError: Error {
    var status: Int
    var code: String
    var message: String
}
