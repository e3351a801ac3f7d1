import Foundation
import StreamdTestSupport
import Testing

@testable import StreamServer

@Suite struct AccessFileTests {
    static let names = AccessNames(
        user: { ["alice": 1001, "bob": 1002][$0] },
        group: { ["ops": 2000][$0] })

    static func parse(_ text: String) throws(AccessFileError) -> [AccessRule] {
        try AccessFile.parse(text, path: "/etc/acl.json", names: names)
    }

    /// The error `text` is refused with.
    static func refusal(_ text: String) -> AccessFileError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func theIssuesExampleParsesIntoTwoRulesWithNamesResolved() throws {
        let rules = try Self.parse("""
            {"rules": [{"user": "alice", "streams": "public.*", "allow": ["read"]},
                       {"group": "ops", "streams": "*", "allow": ["read", "publish", "admin"]}]}
            """)
        #expect(rules == [
            AccessRule(.user(1001), streams: try StreamPattern("public.*"), allow: [.read]),
            AccessRule(.group(2000), streams: try StreamPattern("*"), allow: [.read, .publish, .admin]),
        ])
    }

    @Test func numericIdsAreAcceptedAsNumbersAndAsDigitStrings() throws {
        let rules = try Self.parse(#"{"$schema": "x", "rules": [{"user": 4242, "streams": "a", "allow": ["read"]}, {"group": "77", "streams": "b", "allow": ["admin"]}]}"#)
        #expect(rules.map(\.subject) == [.user(4242), .group(77)])
        #expect(try Self.parse(#"{"rules": []}"#).isEmpty)
    }

    @Test func badJSONIsReportedWithItsLineAndColumn() {
        let error = Self.refusal("{\"rules\": [\n  {\"user\": \"alice\",, \"streams\": \"*\"}\n]}")
        #expect(error?.line == 2)
        #expect(error?.column == 20)
        #expect(error?.description.hasPrefix("the access file /etc/acl.json, line 2, column 20: unexpected ','") == true)
        #expect(Self.refusal("{\"rules\": [")?.line == 1)
        #expect(Self.refusal("")?.reason.contains("end of file") == true)
    }

    @Test func anUnknownKeyIsNamedWithItsPlace() {
        let error = Self.refusal("{\"rules\": [\n  {\"users\": \"alice\", \"streams\": \"*\", \"allow\": [\"read\"]}\n]}")
        #expect(error?.line == 2)
        #expect(error?.column == 4)
        #expect(error?.reason.hasPrefix("unknown key \"users\"") == true)
        #expect(Self.refusal(#"{"rule": []}"#)?.reason.hasPrefix("unknown key \"rule\"") == true)
    }

    @Test func anUnknownRightIsNamedAndTheRightsListed() {
        let error = Self.refusal(#"{"rules": [{"user": "alice", "streams": "*", "allow": ["read", "write"]}]}"#)
        #expect(error?.column == 64)
        #expect(error?.reason == #"unknown right "write"; the rights are "read", "publish" and "admin"."#)
        #expect(Self.refusal(#"{"rules": [{"user": "alice", "streams": "*", "allow": []}]}"#)?.reason.hasPrefix("\"allow\" is empty") == true)
    }

    @Test func unknownUsersAndGroupsAreRefused() {
        let user = Self.refusal(#"{"rules": [{"user": "mallory", "streams": "*", "allow": ["read"]}]}"#)
        #expect(user?.reason.hasPrefix(#"there is no user named "mallory" on this system"#) == true)
        #expect(user?.column == 21)
        let group = Self.refusal(#"{"rules": [{"group": "admins", "streams": "*", "allow": ["read"]}]}"#)
        #expect(group?.reason.hasPrefix(#"there is no group named "admins""#) == true)
    }

    @Test func badPatternsAndIncompleteRulesAreRefused() {
        #expect(Self.refusal(#"{"rules": [{"user": "alice", "streams": "a/b", "allow": ["read"]}]}"#)?.reason.hasPrefix(#"the pattern "a/b" has '/' at byte 1"#) == true)
        #expect(Self.refusal(#"{"rules": [{"user": "alice", "allow": ["read"]}]}"#)?.reason.hasPrefix("this rule has no \"streams\"") == true)
        #expect(Self.refusal(#"{"rules": [{"streams": "*", "allow": ["read"]}]}"#)?.reason.hasPrefix("this rule names no \"user\"") == true)
        #expect(Self.refusal(#"{"rules": [{"user": "alice", "group": "ops", "streams": "*", "allow": ["read"]}]}"#)?.reason.hasPrefix("this rule names both") == true)
        #expect(Self.refusal(#"{"rules": [{"user": "alice", "user": "bob", "streams": "*", "allow": ["read"]}]}"#)?.reason.hasPrefix("the key \"user\" appears twice") == true)
        #expect(Self.refusal(#"{"rules": {}}"#)?.reason.hasPrefix("\"rules\" is an object") == true)
        #expect(Self.refusal(#"[]"#)?.reason.hasPrefix("the file holds an array") == true)
    }

    @Test func aFileOthersCanWriteIsRefusedLikeSSHDsStrictModes() throws {
        let directory = try ShortTemporaryDirectory()
        let path = directory.path + "/acl.json"
        try Data(#"{"rules": []}"#.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o644)
        #expect(try AccessFile.load(path, ownerUID: geteuid(), names: Self.names).rules.isEmpty)
        chmod(path, 0o664)
        #expect(throws: AccessFileError.self) { try AccessFile.load(path, ownerUID: geteuid(), names: Self.names) }
        chmod(path, 0o646)
        do {
            _ = try AccessFile.load(path, ownerUID: geteuid(), names: Self.names)
            Issue.record("a world-writable access file was accepted")
        } catch {
            #expect(error.description == "the access file \(path): it is writable by every user (mode 646), so others could grant themselves any right; run `chmod go-w \(path)` and start streamd again.")
        }
    }

    @Test(.enabled(if: geteuid() == 0, "changing a file's owner needs root"))
    func aFileOwnedBySomeoneElseIsRefused() throws {
        let directory = try ShortTemporaryDirectory()
        let path = directory.path + "/acl.json"
        try Data(#"{"rules": []}"#.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o644)
        #expect(chown(path, 4242, 4242) == 0)
        // The daemon runs as root here, so a file of uid 4242 is neither root's nor the daemon's.
        do {
            _ = try AccessFile.load(path, ownerUID: 0, names: Self.names)
            Issue.record("a file of another user was accepted")
        } catch {
            #expect(error.reason.hasPrefix("it belongs to uid 4242, who is neither root nor the user streamd runs as (uid 0)"))
        }
        // A daemon running as that user may use its own file.
        #expect(try AccessFile.load(path, ownerUID: 4242, names: Self.names).rules.isEmpty)
    }

    @Test func aMissingFileSaysSo() {
        #expect(throws: AccessFileError.self) { try AccessFile.load("/nonexistent/acl.json", ownerUID: 0, names: Self.names) }
    }

    @Test func anInvalidReloadKeepsTheRulesInForceAndAValidOneReplacesThem() throws {
        let directory = try ShortTemporaryDirectory()
        let path = directory.path + "/acl.json"
        func write(_ text: String) throws {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            chmod(path, 0o600)
        }
        try write(#"{"rules": [{"user": "alice", "streams": "*", "allow": ["read"]}]}"#)
        let log = CapturedLog()
        let control = try AccessControl(file: path, ownerUID: 900, names: Self.names, logger: log.logger)
        let alice = AccessIdentity(uid: 1001, gid: 1001, pid: 1, userName: "alice")
        #expect(control.rules.allows(alice, .read, on: "s"))
        try write(#"{"rules": [{"user": "alice", "streams": "*", "allow": ["wrte"]}]}"#)
        #expect(control.reload() == nil)
        #expect(control.rules.allows(alice, .read, on: "s"))
        #expect(log.all.last?.hasPrefix("error the access file was not reloaded, the rules in force before (1 rule) stay: the access file \(path), line 1, column 56: unknown right \"wrte\"") == true)
        try write(#"{"rules": [{"user": "alice", "streams": "*", "allow": ["publish"]}, {"user": "bob", "streams": "*", "allow": ["read"]}]}"#)
        #expect(control.reload() == 2)
        #expect(log.all.last == "notice reloaded the access file: it took 2 rules acl=\(path) rules=2")
        #expect(!control.rules.allows(alice, .read, on: "s"))
        #expect(control.rules.allows(alice, .publish, on: "s"))
    }
}
