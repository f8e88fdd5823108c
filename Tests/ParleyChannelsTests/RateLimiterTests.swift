import ParleyWire
import Testing

@testable import ParleyChannels

@Suite struct RateLimiterTests {
    @Test func bucketSpendsItsBurstThenRefillsAtTheRate() {
        let limit = RateLimit(perSecond: 2, burst: 3)
        var bucket = TokenBucket(limit, now: 0)
        #expect(bucket.take(limit, now: 0) == nil)
        #expect(bucket.take(limit, now: 0) == nil)
        #expect(bucket.take(limit, now: 0) == nil)
        #expect(bucket.take(limit, now: 0) == 1)  // half a second to the next token: Retry-After 1
        #expect(bucket.take(limit, now: 499) == 1)
        #expect(bucket.take(limit, now: 500) == nil)
        #expect(bucket.take(limit, now: 500) == 1)
        // A long pause refills only up to the burst.
        for _ in 0..<3 { #expect(bucket.take(limit, now: 60_000) == nil) }
        #expect(bucket.take(limit, now: 60_000) != nil)
    }

    @Test func retryAfterCountsWholeSecondsForSlowRates() {
        let limit = RateLimit(perSecond: 0.1, burst: 1)
        var bucket = TokenBucket(limit, now: 0)
        #expect(bucket.take(limit, now: 0) == nil)
        #expect(bucket.take(limit, now: 0) == 10)
        #expect(bucket.take(limit, now: 5_000) == 5)
        #expect(bucket.take(limit, now: 10_000) == nil)
    }

    @Test func aClockSteppingBackMintsNothing() {
        let limit = RateLimit(perSecond: 1, burst: 1)
        var bucket = TokenBucket(limit, now: 10_000)
        #expect(bucket.take(limit, now: 10_000) == nil)
        #expect(bucket.take(limit, now: 5_000) == 1)
        #expect(bucket.take(limit, now: 10_500) == 1)
        #expect(bucket.take(limit, now: 11_000) == nil)
    }

    @Test func limiterKeepsOneBucketPerKey() {
        let limiter = RateLimiter()
        let limit = RateLimit(perSecond: 1, burst: 2)
        #expect(limiter.admit("a", limit: limit, now: 0) == nil)
        #expect(limiter.admit("a", limit: limit, now: 0) == nil)
        #expect(limiter.admit("a", limit: limit, now: 0) == 1)
        #expect(limiter.admit("b", limit: limit, now: 0) == nil)
        #expect(limiter.admit("a", limit: .unlimited, now: 0) == nil)
        #expect(limiter.admit("a", limit: limit, now: 1_000) == nil)
    }

    @Test func idleBucketsAreForgottenPastTheThreshold() {
        let limiter = RateLimiter(pruneThreshold: 4)
        let limit = RateLimit(perSecond: 1, burst: 1)
        for i in 0..<4 { _ = limiter.admit("user-\(i)", limit: limit, now: 0) }
        #expect(limiter.trackedKeys == 4)
        // Ten seconds later the old buckets are full again; only the new one is kept.
        _ = limiter.admit("user-new", limit: limit, now: 10_000)
        #expect(limiter.trackedKeys == 1)
    }

    @Test func configReadsRatesQuotasAndTheChannelCap() throws {
        let json = #"""
            {"apps": [{"id": "1", "key": "k", "secret": "s", "limits": {
                "max_channels_per_connection": 7, "max_reactions_per_message": 12, "attachment_quota_bytes": 4096,
                "document_backlog_bytes": 1048576, "document_backlog_messages": 8,
                "rates": {"reactions": {"per_second": 3, "burst": 9}, "typing": {"per_second": 0}, "rooms": {"per_second": 0.5}}}}]}
            """#
        let limits = try #require(try ChannelsConfig.parse(Array(json.utf8)).apps.first?.limits)
        #expect(limits.maxChannelsPerConnection == 7 && limits.maxReactionsPerMessage == 12 && limits.attachmentQuotaBytes == 4096)
        #expect(limits.documentBacklogBytes == 1 << 20 && limits.documentBacklogMessages == 8)
        #expect(limits.rates[.reactions] == RateLimit(perSecond: 3, burst: 9))
        #expect(limits.rates[.typing].isUnlimited)
        #expect(limits.rates[.rooms] == RateLimit(perSecond: 0.5, burst: 1))
        #expect(limits.rates[.messages] == UserWrite.messages.defaultLimit)
        let defaults = AppLimits()
        #expect(defaults.maxChannelsPerConnection == 100 && defaults.maxReactionsPerMessage == 50)
        #expect(defaults.attachmentQuotaBytes == 10 << 30)
        let off = try ChannelsConfig.parse(
            Array(#"{"apps":[{"id":"1","key":"k","secret":"s","limits":{"attachment_quota_bytes":0}}]}"#.utf8))
        #expect(off.apps[0].limits.attachmentQuotaBytes == nil)
    }

    @Test func configRefusesUnknownKindsAndBadRates() {
        for bad in [
            #"{"rates": {"sneezes": {"per_second": 1}}}"#, #"{"rates": {"edits": {"per_second": -1}}}"#,
            #"{"rates": {"edits": {"burst": 0}}}"#, #"{"max_channels_per_connection": 0}"#
        ] {
            let json = #"{"apps": [{"id": "1", "key": "k", "secret": "s", "limits": "# + bad + "}]}"
            #expect(throws: ChannelsConfigError.self, "\(bad)") { try ChannelsConfig.parse(Array(json.utf8)) }
        }
    }
}
