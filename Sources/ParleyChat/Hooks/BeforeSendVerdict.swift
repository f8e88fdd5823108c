import ParleyWire

/// What a before-send endpoint's answer means.
enum BeforeSendVerdict: Equatable {
    /// Store the message as sent.
    case allow
    /// Refuse it, with the reason the sender is shown.
    case reject(String)
    /// The answer object, holding the new `parts` (or `text`).
    case rewrite(JSONObject)
    /// No usable answer (timeout, error status, nonsense), and why.
    case failed(String)

    /// Reads `{"action": "allow" | "reject" | "rewrite", "reason"?, "parts"? | "text"?}` from a 2xx answer.
    init(_ answer: ChatHookAnswer?) {
        guard let answer else {
            self = .failed("the before-send hook did not answer in time")
            return
        }
        guard answer.succeeded else {
            self = .failed("the before-send hook answered \(answer.status)")
            return
        }
        guard let object = (try? JSONParser.parse(answer.body))?.objectValue, let action = object["action"]?.stringValue else {
            self = .failed("the before-send hook's answer is not a JSON object with an action")
            return
        }
        switch action {
        case "allow":
            self = .allow
        case "reject":
            let reason = object["reason"]?.stringValue ?? ""
            self = .reject(reason.isEmpty ? "the message was rejected" : String(reason.prefix(1000)))
        case "rewrite":
            if object["parts"] == nil, let text = object["text"]?.stringValue {
                self = .rewrite(["parts": .array([.object(["type": .string("text"), "text": .string(text)])])])
            } else {
                var rewrite = JSONObject()
                rewrite["parts"] = object["parts"]
                self = .rewrite(rewrite)
            }
        default:
            self = .failed("the before-send hook's action \(action) is not allow, reject or rewrite")
        }
    }
}
