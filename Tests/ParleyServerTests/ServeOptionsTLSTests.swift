import Testing

@testable import ParleyServer

@Suite struct ServeOptionsTLSTests {
    @Test func certificateAndKeyComeFromFlagsOrEnvironmentAndGoTogether() throws {
        let flags = try ServeOptions.parse(["--tls-cert", "c.pem", "--tls-key=k.pem"])
        #expect(flags.tlsCertificateFile == "c.pem" && flags.tlsKeyFile == "k.pem" && flags.servesTLS)
        let env = try ServeOptions.parse([], environment: ["PARLEY_TLS_CERT": "e.pem", "PARLEY_TLS_KEY": "e.key"])
        #expect(env.tlsCertificateFile == "e.pem" && env.tlsKeyFile == "e.key")
        #expect(try !ServeOptions.parse([]).servesTLS)
        for lone in [["--tls-cert", "c.pem"], ["--tls-key", "k.pem"]] {
            do {
                _ = try ServeOptions.parse(lone)
                Issue.record("\(lone) was accepted alone")
            } catch {
                #expect(error.code == "tls_incomplete")
            }
        }
    }

    @Test func theConfigFileNamesTheFilesUnlessFlagsDid() throws {
        let config = Array(#"{"apps": [], "tls": {"cert_file": "/etc/p/c.pem", "key_file": "/etc/p/k.pem"}}"#.utf8)
        let fromFile = try ServeOptions.parse([]).applyingConfigFileTLS(config)
        #expect(fromFile.tlsCertificateFile == "/etc/p/c.pem" && fromFile.tlsKeyFile == "/etc/p/k.pem")
        let flagsWin = try ServeOptions.parse(["--tls-cert", "f.pem", "--tls-key", "f.key"]).applyingConfigFileTLS(config)
        #expect(flagsWin.tlsCertificateFile == "f.pem" && flagsWin.tlsKeyFile == "f.key")
        let none = try ServeOptions.parse([]).applyingConfigFileTLS(Array(#"{"apps": []}"#.utf8))
        #expect(!none.servesTLS)
    }

    @Test func aBrokenTLSMemberIsRefused() throws {
        for text in [#"{"tls": "c.pem"}"#, #"{"tls": {"cert_file": "c.pem"}}"#, #"{"tls": {"cert_file": 3, "key_file": "k"}}"#] {
            #expect(throws: ServeOptionsError.self) { try ServeOptions.parse([]).applyingConfigFileTLS(Array(text.utf8)) }
        }
    }

    @Test func helpListsTheTLSFlags() {
        #expect(ServeOptions.helpText.contains("--tls-cert FILE"))
        #expect(ServeOptions.helpText.contains("PARLEY_TLS_KEY"))
    }
}
