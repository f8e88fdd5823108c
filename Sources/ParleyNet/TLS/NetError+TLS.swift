import COpenSSL

extension NetError {
    /// An error of `code` whose detail is `what` followed by OpenSSL's reasons, which are
    /// taken off this thread's error queue (so a later call does not see them).
    static func tls(_ code: Code, _ what: String) -> NetError {
        var reasons: [String] = []
        var buffer = [CChar](repeating: 0, count: 256)
        while true {
            let error = ERR_get_error()
            guard error != 0 else { break }
            ERR_error_string_n(error, &buffer, buffer.count)
            reasons.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return NetError(code, reasons.isEmpty ? what : "\(what): \(reasons.joined(separator: "; "))")
    }
}
