extension AppConfig {
    /// Whether `check` accepts one of the app's secrets (a signature made with any of them is good).
    public func acceptsAnySecret(_ check: (String) -> Bool) -> Bool {
        secrets.contains(where: check)
    }

    /// nil when `check` passes with one of the app's secrets; otherwise the failure it gave
    /// for the signing secret (the reason the client most likely needs to hear).
    public func failureWithEverySecret<Failure>(_ check: (String) -> Failure?) -> Failure? {
        var first: Failure?
        for secret in secrets {
            guard let failure = check(secret) else { return nil }
            if first == nil { first = failure }
        }
        return first
    }
}
