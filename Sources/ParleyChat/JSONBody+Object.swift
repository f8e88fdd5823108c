import ParleyWire

extension JSONBody {
    /// A body already parsed, such as a hook's answer, read with the same rules as a request's.
    init(object: JSONObject) {
        self.object = object
    }
}
