import ParleyKit
import ParleyWire

/// Parley's user API called with the app's credentials (HTTP Basic `key:secret`): what an
/// app's backend may do that users may not, such as creating any user.
struct ParleyAdmin: Sendable {
    let options: BackendOptions
    let http: any HTTPTransport

    /// The user with `id`, created with `name` when it does not exist yet.
    func ensureUser(id: String, name: String) async throws(BackendError) -> JSONValue {
        let created = try await call("POST", "/v1/users", body: .object(["id": .string(id), "name": .string(name)]))
        if created.status == 201, let user = created.json { return user }
        guard created.status == 409 else { throw failure(created, "creating user \(id)") }
        let existing = try await call("GET", "/v1/users/" + id, body: nil)
        guard existing.status == 200, let user = existing.json else { throw failure(existing, "reading user \(id)") }
        return user
    }

    private func call(_ method: String, _ path: String, body: JSONValue?) async throws(BackendError) -> (status: Int, json: JSONValue?) {
        var headers = HTTPHeaders()
        headers.add("Authorization", "Basic " + Base64.encode(Array((options.appKey + ":" + options.appSecret).utf8)))
        headers.add("X-Parley-App", options.appID)
        headers.add("Accept", "application/json")
        if body != nil { headers.add("Content-Type", "application/json") }
        let request = HTTPRequestMessage(
            method: method, url: options.parleyURL + path, headers: headers,
            body: body.map(JSONWriter.serialize) ?? [])
        do {
            let response = try await http.send(request)
            return (response.status, try? JSONParser.parse(response.body))
        } catch {
            throw BackendError(status: 502, code: "parley_unreachable", message: "Parley at \(options.parleyURL): \(error.message)")
        }
    }

    private func failure(_ answer: (status: Int, json: JSONValue?), _ doing: String) -> BackendError {
        let message = answer.json?["error"]?["message"]?.stringValue ?? "HTTP \(answer.status)"
        let invalid = answer.status == 400 || answer.status == 422
        return BackendError(status: invalid ? 422 : 502, code: invalid ? "invalid_user" : "parley_error", message: "\(doing): \(message)")
    }
}
