import Foundation
import Testing

@testable import ParleyServer

@Suite struct AppSecretSourcesTests {
    private let environment = ["PARLEY_TEST_SECRET": "from-env", "PARLEY_TEST_EMPTY": ""]

    private func apps(_ text: String) -> Result<ConfigFile.Apps, ConfigProblem> {
        let environment = self.environment
        let file = ConfigFile(path: "apps.json", bytes: Array(text.utf8))
        return file.apps(secrets: AppSecretSources(environment: { environment[$0] }))
    }

    private func secretFile(_ contents: String, mode: Int = 0o600) throws -> String {
        let path = NSTemporaryDirectory() + "parley-secret-\(UUID().uuidString)"
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    @Test func aSecretFromAFileLosesItsTrailingLineEnd() throws {
        let path = try secretFile("s3cret\r\n")
        let read = try apps(#"{"apps": [{"id": "1", "key": "k", "secret_file": "\#(path)"}]}"#).get()
        #expect(read.config.apps[0].secrets == ["s3cret"])
        #expect(read.warnings.isEmpty)
    }

    @Test func aSecretFromTheEnvironment() throws {
        let read = try apps(#"{"apps": [{"id": "1", "key": "k", "secret_env": "PARLEY_TEST_SECRET", "secrets": ["old"]}]}"#).get()
        #expect(read.config.apps[0].secrets == ["from-env", "old"])
    }

    @Test func secretsEntriesMayNameAFileOrAVariable() throws {
        let path = try secretFile("filed\n", mode: 0o640)
        let text =
            #"{"apps": [{"id": "1", "key": "k", "secret": "s", "secrets": [{"file": "\#(path)"}, "plain", {"env": "PARLEY_TEST_SECRET"}]}]}"#
        #expect(ConfigFile(path: "apps.json", bytes: Array(text.utf8)).problems.isEmpty)
        #expect(try apps(text).get().config.apps[0].secrets == ["s", "filed", "plain", "from-env"])
    }

    @Test func aMissingFileOrVariableNamesTheSetting() {
        let missing = apps(
            #"{"apps": [{"id": "1", "key": "k", "secret": "s"}, {"id": "2", "key": "k2", "secret_file": "/nonexistent/parley"}]}"#)
        #expect(
            missing.failure?.description
                == "line 1, column 76: $.apps[1].secret_file: cannot read secret file /nonexistent/parley: No such file or directory")
        let unset = apps(#"{"apps": [{"id": "1", "key": "k", "secret_env": "PARLEY_TEST_UNSET"}]}"#)
        #expect(unset.failure?.path == "$.apps[0].secret_env")
        #expect(unset.failure?.message == "environment variable PARLEY_TEST_UNSET is not set")
        let empty = apps(#"{"apps": [{"id": "1", "key": "k", "secret": "s", "secrets": [{"env": "PARLEY_TEST_EMPTY"}]}]}"#)
        #expect(empty.failure?.path == "$.apps[0].secrets[0].env")
        #expect(empty.failure?.message == "environment variable PARLEY_TEST_EMPTY is empty")
    }

    @Test func anEmptyOrWorldWritableFileIsRefusedAndAWorldReadableOneWarned() throws {
        let blank = try secretFile("\n\n")
        #expect(
            apps(#"{"apps": [{"id": "1", "key": "k", "secret_file": "\#(blank)"}]}"#).failure?.message == "secret file \(blank) is empty")
        let writable = try secretFile("w", mode: 0o606)
        #expect(
            apps(#"{"apps": [{"id": "1", "key": "k", "secret_file": "\#(writable)"}]}"#).failure?.message
                == "secret file \(writable) is writable by every user; chmod o-w it")
        let readable = try secretFile("r", mode: 0o644)
        let read = try apps(#"{"apps": [{"id": "1", "key": "k", "secret_file": "\#(readable)"}]}"#).get()
        #expect(read.config.apps[0].secret == "r")
        #expect(read.warnings.map(\.path) == ["$.apps[0].secret_file"])
    }

    @Test func twoSourcesForOneSecretAreRefused() {
        let both = apps(#"{"apps": [{"id": "1", "key": "k", "secret": "s", "secret_env": "PARLEY_TEST_SECRET"}]}"#)
        #expect(both.failure?.path == "$.apps[0].secret_env")
        #expect(both.failure?.message == "give only one of secret, secret_file and secret_env")
        let entry = apps(#"{"apps": [{"id": "1", "key": "k", "secret": "s", "secrets": [{"file": "/a", "env": "B"}]}]}"#)
        #expect(entry.failure?.path == "$.apps[0].secrets[0]")
    }

    @Test func theTableKnowsTheNewKeys() {
        let problems = ConfigFile(
            path: "apps.json",
            bytes: Array(#"{"apps": [{"id": "1", "key": "k", "secret_fil": "/x", "secrets": [{"files": "/y"}, 3]}]}"#.utf8)
        ).problems
        #expect(problems.map(\.path) == ["$.apps[0].secret_fil", "$.apps[0].secrets[0].files", "$.apps[0].secrets[1]"])
        #expect(problems[0].message == #"unknown setting; did you mean "secret_file"?"#)
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
