/// How `/metrics` counts a before-send call.
extension BeforeSendVerdict {
    /// The verdict label: what the endpoint decided, `timeout` without an answer in time, `error`
    /// for any other unusable answer (an error status, nonsense, an invalid rewrite is counted
    /// as a rewrite the endpoint asked for).
    func metricsVerdict(answered: Bool) -> ChatHookStatistics.Verdict {
        switch self {
        case .allow: .allow
        case .reject: .reject
        case .rewrite: .rewrite
        case .failed: answered ? .error : .timeout
        }
    }
}
