import ParleyWire
import Testing

@testable import ParleyChannels

/// The byte scan that lets publishing skip the cache check for ordinary channels must never
/// say "no" for a cache channel.
@Suite struct CacheChannelScanTests {
    @Test func everyCacheChannelKindPassesTheScan() {
        for name in ["cache-x", "private-cache-x", "presence-cache-x", "private-encrypted-cache-x", "cache-"] {
            #expect(LocalChannelHub.mayBeCacheChannel(name), "\(name)")
            #expect(PusherChannel(name)?.isCache ?? true, "\(name)")
        }
    }

    @Test func ordinaryNamesAreSkipped() {
        for name in ["", "c", "cache", "cach-e", "news-cache", "bench-0", "private-x", "ccachee", "c-a-c-h-e-"] {
            #expect(!LocalChannelHub.mayBeCacheChannel(name), "\(name)")
        }
        // Containing the marker is not enough to be a cache channel; the full check still decides.
        #expect(LocalChannelHub.mayBeCacheChannel("news-cache-x"))
        #expect(PusherChannel("news-cache-x")?.isCache == false)
        #expect(LocalChannelHub.mayBeCacheChannel("ccache-x") && PusherChannel("ccache-x")?.isCache == false)
        #expect(LocalChannelHub.mayBeCacheChannel(String(repeating: "c", count: 10_000) + "cache-"))
    }
}
