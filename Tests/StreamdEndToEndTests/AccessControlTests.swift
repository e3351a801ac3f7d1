import Foundation
import StreamdTestSupport
import Testing

/// Who may connect to a real streamd and what they may do, with real users: a root daemon on a
/// socket every user may open (mode 666), the real streamctl run as throw-away users via runuser.
@Suite(.serialized) struct AccessControlTests {
    /// A directory every user can enter (its socket is reachable; its database stays root's).
    static func sharedDirectory() throws -> ShortTemporaryDirectory {
        let directory = try ShortTemporaryDirectory()
        chmod(directory.path, 0o711)
        return directory
    }

    /// Writes `text` as the access file of `directory` (root's, 0644) and returns its path.
    @discardableResult
    static func writeAccessFile(_ text: String, in directory: ShortTemporaryDirectory) throws -> String {
        let path = directory.path + "/acl.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o644)
        return path
    }

    static func daemon(_ directory: ShortTemporaryDirectory, acl: String? = nil) throws -> DaemonProcess {
        try DaemonProcess.serving(directory, extra: ["--socket-mode", "666"] + (acl.map { ["--acl", $0] } ?? []))
    }

    /// Runs streamctl as root (the daemon's own user) and requires it to succeed.
    @discardableResult
    static func asRoot(_ directory: ShortTemporaryDirectory, _ arguments: [String]) throws -> CommandResult {
        let result = try ToolProcess.run("streamctl", ["--socket", directory.socket] + arguments)
        guard result.status == 0 else { throw TestFailure("root's streamctl \(arguments) failed: \(result)") }
        return result
    }

    @Test(.enabled(if: ThrowawayUser.isAvailable, "needs root to create throw-away users with useradd, and runuser"))
    func withoutAnAccessFileAnotherUserIsRefusedWhateverTheSocketModeAndTheRefusalIsLogged() throws {
        let users = try AccessUsers(count: 1)
        let alice = users.users[0]
        let directory = try Self.sharedDirectory()
        let daemon = try Self.daemon(directory)
        try Self.asRoot(directory, ["publish", "orders", "first"])

        let refused = try users.streamctl(as: alice, ["--socket", directory.socket, "publish", "orders", "hello"])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("user \(alice.name) (uid \(alice.uid)) may not publish to stream orders; streamd has no access file, so only its own user and root may use it"))
        #expect(refused.standardError.contains("(permission_denied)"))
        let listing = try users.streamctl(as: alice, ["--socket", directory.socket, "ls"])
        #expect(listing.status == 1)
        #expect(listing.standardError.contains("may not list streams"))
        // Nothing of alice's was stored; root still may do everything.
        #expect(try Self.asRoot(directory, ["tail", "orders", "--all"]).lines.count == 1)
        try daemon.waitForError(containing: "refused list streams")
        let warning = daemon.standardError.split(separator: "\n").first { $0.contains("refused publish") }
        #expect(warning?.contains("warning") == true)
        #expect(warning?.contains("uid=\(alice.uid)") == true)
        #expect(warning?.contains("user=\(alice.name)") == true)
        #expect(warning?.contains("right=publish") == true)
        #expect(warning?.contains("stream=orders") == true)
        #expect(warning?.contains("pid=") == true)
    }

    @Test(.enabled(if: ThrowawayUser.isAvailable, "needs root to create throw-away users with useradd, and runuser"))
    func theAccessFileGrantsEachRightSeparatelyAndAGroupRuleWorksThroughASupplementaryGroup() throws {
        let users = try AccessUsers(count: 3, inGroup: [2])
        let (reader, publisher, admin) = (users.users[0], users.users[1], users.users[2])
        let directory = try Self.sharedDirectory()
        let acl = try Self.writeAccessFile("""
            {"rules": [
              {"user": "\(reader.name)", "streams": "news.*", "allow": ["read"]},
              {"user": "\(publisher.name)", "streams": "feed", "allow": ["publish"]},
              {"group": "\(users.group)", "streams": "adm.*", "allow": ["read", "publish", "admin"]}
            ]}
            """, in: directory)
        let daemon = try Self.daemon(directory, acl: acl)
        try Self.asRoot(directory, ["publish", "news.today", "headline"])
        try Self.asRoot(directory, ["create", "feed"])
        let socket = ["--socket", directory.socket]

        // read: yes; publish: no.
        let tail = try users.streamctl(as: reader, socket + ["tail", "news.today", "--all"])
        #expect(tail.status == 0, "\(tail)")
        #expect(tail.standardOutput.contains("headline"))
        #expect(try users.streamctl(as: reader, socket + ["info", "news.today"]).status == 0)
        let listing = try users.streamctl(as: reader, socket + ["ls", "--json"])
        #expect(listing.standardOutput.contains("news.today") && !listing.standardOutput.contains("feed"), "only readable streams are listed: \(listing)")
        let readerPublish = try users.streamctl(as: reader, socket + ["publish", "news.today", "fake"])
        #expect(readerPublish.status == 1)
        #expect(readerPublish.standardError.contains("user \(reader.name) (uid \(reader.uid)) may not publish to stream news.today; ask the daemon's operator to grant it in the access file \(acl)"))

        // publish: yes; admin and read: no.
        #expect(try users.streamctl(as: publisher, socket + ["publish", "feed", "one"]).status == 0)
        let truncate = try users.streamctl(as: publisher, socket + ["truncate", "feed", "--keep", "0"])
        #expect(truncate.status == 1)
        #expect(truncate.standardError.contains("may not administer stream feed"))
        #expect(try users.streamctl(as: publisher, socket + ["tail", "feed", "--all"]).standardError.contains("may not read stream feed"))
        let create = try users.streamctl(as: publisher, socket + ["publish", "feed2", "x"])
        #expect(create.standardError.contains("may not publish to stream feed2"))

        // admin, through the group: create, truncate, rm; each audited with the user's uid.
        #expect(try users.streamctl(as: admin, socket + ["create", "adm.x"]).status == 0)
        #expect(try users.streamctl(as: admin, socket + ["publish", "adm.x", "a"]).status == 0)
        #expect(try users.streamctl(as: admin, socket + ["truncate", "adm.x", "--keep", "0"]).status == 0)
        #expect(try users.streamctl(as: admin, socket + ["rm", "adm.x"]).status == 0)
        #expect(try users.streamctl(as: admin, socket + ["rm", "feed"]).standardError.contains("may not see stream feed"))
        try daemon.waitForError(containing: "admin: rm adm.x")
        let lines = daemon.standardError.split(separator: "\n")
        for operation in ["create", "truncate", "rm"] {
            let line = lines.first { $0.contains("admin: \(operation) adm.x") }
            #expect(line?.contains("notice") == true, "\(operation): \(String(describing: line))")
            #expect(line?.contains("uid=\(admin.uid)") == true)
            #expect(line?.contains("pid=") == true)
        }
        // The root's own changes are audited too.
        #expect(lines.contains { $0.contains("admin: create feed") && $0.contains("uid=0") })
        #expect(try Self.asRoot(directory, ["tail", "feed", "--all"]).lines.count == 1)
    }

    @Test(.enabled(if: ThrowawayUser.isAvailable, "needs root to create throw-away users with useradd, and runuser"))
    func replayAndImportIntoAnExistingStreamNeedPublishAndIntoANewOneAdminAsWell() throws {
        let users = try AccessUsers(count: 1)
        let alice = users.users[0]
        let directory = try Self.sharedDirectory()
        let acl = try Self.writeAccessFile("""
            {"rules": [
              {"user": "\(alice.name)", "streams": "src", "allow": ["read"]},
              {"user": "\(alice.name)", "streams": "dst*", "allow": ["publish"]},
              {"user": "\(alice.name)", "streams": "dst.new", "allow": ["admin"]}
            ]}
            """, in: directory)
        let daemon = try Self.daemon(directory, acl: acl)
        try Self.asRoot(directory, ["publish", "src", "one"])
        try Self.asRoot(directory, ["create", "dst"])
        let socket = ["--socket", directory.socket]
        let export = directory.path + "/src.ndjson"
        try Self.asRoot(directory, ["export", "src", "--output", export])
        chmod(export, 0o644)

        #expect(try users.streamctl(as: alice, socket + ["replay", "src", "--to", "dst"]).status == 0)
        #expect(try users.streamctl(as: alice, socket + ["import", "dst", "--input", export]).status == 0)
        let missing = try users.streamctl(as: alice, socket + ["import", "dst.other", "--input", export])
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("may not create stream dst.other (publishing to a missing stream creates it, which needs the admin right; it has publish only)"))
        #expect(try users.streamctl(as: alice, socket + ["replay", "src", "--to", "dst.new"]).status == 0)
        #expect(try Self.asRoot(directory, ["tail", "dst", "--all"]).lines.count == 2)
        #expect(try Self.asRoot(directory, ["tail", "dst.new", "--all"]).lines.count == 1)
        try daemon.waitForError(containing: "admin: create dst.new")
        #expect(daemon.standardError.contains("detail=by publishing to the missing stream"))
    }

    @Test(.enabled(if: ThrowawayUser.isAvailable, "needs root to create throw-away users with useradd, and runuser"))
    func sighupReloadsTheRulesWithoutARestartAndAnInvalidFileKeepsTheOldOnes() throws {
        let users = try AccessUsers(count: 1)
        let alice = users.users[0]
        let directory = try Self.sharedDirectory()
        let acl = try Self.writeAccessFile(#"{"rules": [{"user": "\#(alice.name)", "streams": "s", "allow": ["read"]}]}"#, in: directory)
        let daemon = try Self.daemon(directory, acl: acl)
        try Self.asRoot(directory, ["create", "s"])
        let socket = ["--socket", directory.socket]
        #expect(try users.streamctl(as: alice, socket + ["publish", "s", "before"]).status == 1)

        try Self.writeAccessFile(#"{"rules": [{"user": "\#(alice.name)", "streams": "s", "allow": ["read", "publish"]}]}"#, in: directory)
        daemon.signal(SIGHUP)
        try daemon.waitForError(containing: "it took 1 rule")
        #expect(try users.streamctl(as: alice, socket + ["publish", "s", "after"]).status == 0)

        try Self.writeAccessFile("{\"rules\": [\n  {\"user\": \"\(alice.name)\", \"streams\": \"s\", \"allow\": [\"nothing\"]}\n]}", in: directory)
        daemon.signal(SIGHUP)
        try daemon.waitForError(containing: "was not reloaded")
        #expect(daemon.standardError.contains("line 2, column"))
        #expect(daemon.standardError.contains(#"unknown right "nothing""#))
        // The old rules stay in force, and the daemon keeps serving.
        #expect(try users.streamctl(as: alice, socket + ["publish", "s", "still"]).status == 0)
        #expect(try Self.asRoot(directory, ["tail", "s", "--all"]).lines.count == 2)

        // A reload that withdraws read ends alice's live tail.
        let follow = try ToolProcess(path: "/usr/sbin/runuser", ["-u", alice.name, "--", DaemonProcess.builtExecutable(named: "streamctl")] + socket + ["tail", "s", "--all", "--follow"])
        try follow.waitForOutput(containing: "still")
        try Self.writeAccessFile(#"{"rules": [{"user": "\#(alice.name)", "streams": "s", "allow": ["publish"]}]}"#, in: directory)
        daemon.signal(SIGHUP)
        let ended = follow.finish(timeout: 20)
        #expect(ended.status == 1, "\(ended)")
        #expect(ended.standardError.contains("may not read stream s any more (the access file was reloaded)"))
    }

    @Test func sighupWithoutAnAccessFileIsLoggedAndTheDaemonGoesOnServing() throws {
        let directory = try ShortTemporaryDirectory()
        let daemon = try DaemonProcess.serving(directory)
        daemon.signal(SIGHUP)
        try daemon.waitForError(containing: "no access file to reload")
        #expect(daemon.process.isRunning)
        try Self.asRoot(directory, ["publish", "s", "after-sighup"])
    }

    @Test func helpNamesTheAccessFileFlagAndItsVariable() throws {
        let help = try DaemonProcess(["--help"])
        #expect(help.waitForExit() == 0)
        let text = help.standardOutput + help.standardError
        for word in ["--acl", "STREAMD_ACL", "SIGHUP", "streamd-acl.schema.json"] {
            #expect(text.contains(word), "help does not mention \(word)")
        }
    }

    @Test func anInvalidAccessFileKeepsTheDaemonFromStartingAndSaysWhere() throws {
        let directory = try ShortTemporaryDirectory()
        let acl = try Self.writeAccessFile("{\"rules\": [\n  {\"user\": \"no-such-user-xq\", \"streams\": \"*\", \"allow\": [\"read\"]}\n]}", in: directory)
        let daemon = try DaemonProcess(["--socket", directory.socket, "--db", directory.database, "--acl", acl])
        #expect(daemon.waitForExit() == 1)
        #expect(daemon.standardError.contains("streamd: the access file \(acl), line 2, column 12: there is no user named \"no-such-user-xq\" on this system"))
        #expect(!FileManager.default.fileExists(atPath: directory.socket))

        try Self.writeAccessFile(#"{"rules": []}"#, in: directory)
        chmod(acl, 0o666)
        let loose = try DaemonProcess(["--socket", directory.socket, "--db", directory.database], environment: ["STREAMD_ACL": acl])
        #expect(loose.waitForExit() == 1)
        #expect(loose.standardError.contains("it is writable by every user (mode 666)"))
    }
}
