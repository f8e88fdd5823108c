import Testing

@testable import ParleyWire

@Suite struct DigestTests {
    @Test func knownAnswers() {
        #expect(Digest.sha1(Array("abc".utf8)).hexString == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(Digest.md5(Array("".utf8)).hexString == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(Digest.sha256(Array("abc".utf8)).hexString == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // RFC 4231 test case 2.
        #expect(
            Digest.hmacSHA256(key: Array("Jefe".utf8), Array("what do ya want for nothing?".utf8)).hexString
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func randomBytesDiffer() {
        #expect(Digest.randomBytes(16).count == 16)
        #expect(Digest.randomBytes(16) != Digest.randomBytes(16))
    }

    @Test func base64RoundTripAndRejects() {
        #expect(Base64.encode(Array("hello".utf8)) == "aGVsbG8=")
        #expect(Base64.decode("aGVsbG8=") == Array("hello".utf8))
        #expect(Base64.decode("aGVsbG8") == nil)
        #expect(Base64.decode("aGV*bG8=") == nil)
        #expect(Base64.decode("") == [])
    }

    @Test func headersCaseInsensitive() {
        var h: HTTPHeaders = ["Content-Type": "text/plain", "X-A": "1"]
        h.add("x-a", "2")
        #expect(h.first("content-type") == "text/plain")
        #expect(h.values(for: "X-a") == ["1", "2"])
        h.replace("X-A", "3")
        #expect(h.values(for: "x-a") == ["3"])
        #expect(!HTTPHeaders.namesEqual("a[", "A{"))
        // Names past the small-string size compare their heap storage.
        #expect(HTTPHeaders.namesEqual("Sec-WebSocket-Extensions", "sec-websocket-EXTENSIONS"))
        #expect(!HTTPHeaders.namesEqual("Sec-WebSocket-Extensions", "Sec-WebSocket-Extensionz"))
        #expect(!HTTPHeaders.namesEqual("Content-Length", "Content-Lengths"))
        #expect(HTTPHeaders.namesEqual("", ""))
    }
}
