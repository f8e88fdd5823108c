import ParleyChannels

/// Per-user write rates (each app's `limits.rates`), answered with 429 and `Retry-After`.
extension ChatService {
    /// The rate of `write` in the caller's app, after the server-wide switches.
    func rate(_ write: UserWrite, in app: AppConfig) -> RateLimit {
        guard configuration.limits.userRateLimits else { return .unlimited }
        if write == .messages, let perSecond = configuration.limits.sendsPerSecond {
            return RateLimit(perSecond: perSecond, burst: configuration.limits.sendBurst ?? 2 * perSecond)
        }
        return app.limits.rates[write]
    }

    /// Spends one of `user`'s tokens for `write`, or throws `rate_limited` with the seconds
    /// until the next one. `user` nil (an app-level call acting as nobody) is not limited: the
    /// app's backend is trusted with its own pace.
    func admit(_ write: UserWrite, _ context: ChatContext, user: String?) throws(ChatError) {
        guard let user else { return }
        let key = write.rawValue + "\u{0}" + context.appID + "\u{0}" + user
        if let wait = limiter.admit(key, limit: rate(write, in: context.app), now: clock.now()) {
            throw ChatError(
                .rateLimited, "too many \(write.noun); retry in \(wait) s",
                headers: ["Retry-After": String(wait)])
        }
    }

    /// `admit` for the calling user (app-level calls pass).
    func admit(_ write: UserWrite, _ context: ChatContext) throws(ChatError) {
        try admit(write, context, user: context.caller.userID)
    }
}
