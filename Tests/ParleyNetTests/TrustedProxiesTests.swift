import Testing

@testable import ParleyNet

@Suite struct TrustedProxiesTests {
    private func proxies(_ ranges: String...) -> TrustedProxies {
        var proxies = TrustedProxies()
        for range in ranges {
            let added = proxies.add(range)
            #expect(added, "\(range)")
        }
        return proxies
    }

    private func peer(_ host: String) -> SocketAddress { SocketAddress(host: host, port: 40_000)! }

    @Test func rangesMatchByPrefix() {
        let trusted = proxies("10.0.0.0/8", "192.0.2.7", "2001:db8::/32", "::1")
        #expect(trusted.contains(peer("10.200.3.4")))
        #expect(!trusted.contains(peer("11.0.0.1")))
        #expect(trusted.contains(peer("192.0.2.7")) && !trusted.contains(peer("192.0.2.8")))
        #expect(trusted.contains(peer("2001:db8:ffff::1")) && !trusted.contains(peer("2001:db9::1")))
        #expect(trusted.contains(peer("::1")))
        // An IPv4-mapped peer (a dual-stack listener) matches the IPv4 range.
        #expect(trusted.contains(peer("::ffff:10.1.2.3")))
        #expect(proxies("172.16.0.0/12").contains(peer("172.31.255.255")) && !proxies("172.16.0.0/12").contains(peer("172.32.0.0")))
    }

    @Test func malformedRangesAreRefused() {
        var trusted = TrustedProxies()
        for bad in ["", "10.0.0.0/33", "::/129", "10.0.0/8", "example.org", "10.0.0.0/-1", "10.0.0.0/8/8", "10.0.0.0/"] {
            let added = trusted.add(bad)
            #expect(!added, "\(bad)")
        }
        #expect(trusted.isEmpty)
    }

    @Test func theClientIsTheRightMostUntrustedAddress() {
        let trusted = proxies("127.0.0.1/32", "10.0.0.0/8")
        let proxy = peer("127.0.0.1")
        // A client-written entry on the left proves nothing; the hop our proxy appended counts.
        #expect(trusted.client(of: proxy, forwardedFor: ["203.0.113.9, 198.51.100.7"])?.host == "198.51.100.7")
        // Chained trusted proxies are skipped, over several header lines too.
        #expect(trusted.client(of: proxy, forwardedFor: ["198.51.100.7, 10.1.1.1", "10.2.2.2"])?.host == "198.51.100.7")
        #expect(trusted.client(of: proxy, forwardedFor: ["[2001:db8::5]:4711", "10.0.0.3:8080"])?.host == "2001:db8::5")
        // All trusted: the left-most is the client. No header or garbage on the right: the peer.
        #expect(trusted.client(of: proxy, forwardedFor: ["10.0.0.9, 10.0.0.8"])?.host == "10.0.0.9")
        #expect(trusted.client(of: proxy, forwardedFor: []) == nil)
        #expect(trusted.client(of: proxy, forwardedFor: ["198.51.100.7, unknown"]) == nil)
        #expect(trusted.client(of: proxy, forwardedFor: ["unknown, 10.0.0.8"])?.host == "10.0.0.8")
    }

    @Test func anUntrustedPeerIsNeverForwardedFor() {
        #expect(proxies("10.0.0.0/8").client(of: peer("127.0.0.1"), forwardedFor: ["198.51.100.7"]) == nil)
        #expect(TrustedProxies().client(of: peer("127.0.0.1"), forwardedFor: ["198.51.100.7"]) == nil)
    }
}
