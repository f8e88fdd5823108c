import ParleyChat

extension ServeOptions {
    /// The chat service's limits as these options set them: the defaults, with `--send-rate`
    /// applied (a burst of twice the sustained rate, so a client may catch up after a pause)
    /// and the config file's thumbnail settings.
    public var chatLimits: ChatLimits {
        var limits = ChatLimits()
        thumbnails.apply(to: &limits)
        if let rate = sendsPerSecond {
            limits.sendsPerSecond = Double(rate)
            limits.sendBurst = Double(2 * rate)
        }
        return limits
    }
}
