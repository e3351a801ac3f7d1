import CSQLite
import Foundation
import StreamdTestSupport
import Testing

/// `verify` through the daemon, and offline on the database file of a stopped (or running) daemon.
@Suite struct VerifyTests {
    @Test func verifyThroughTheDaemonReportsASoundLog() throws {
        let directory = try ShortTemporaryDirectory()
        let daemon = try DaemonProcess.serving(directory)
        let ctl = Ctl(socket: directory.socket)
        try ctl.succeed("publish", "a", input: "1\n2\n3\n")
        try ctl.succeed("publish", "b", "x")
        #expect(try ctl.succeed("verify") == "verified the daemon's log: 2 streams, 2 blocks, 4 events: no problems\n")
        let report = try ctl.json("verify", "a")
        #expect(report["ok"]?.bool == true && report["source"]?.string == "daemon" && report["stream"]?.string == "a")
        #expect(report["problems"]?.array?.isEmpty == true)
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
    }

    @Test func offlineVerifyOfADatabaseInUseSaysSoAndSuggestsDroppingDB() throws {
        let directory = try ShortTemporaryDirectory()
        let daemon = try DaemonProcess.serving(directory)
        let result = try Ctl(socket: directory.socket).run("verify", "--db", directory.database)
        #expect(result.status == 1)
        #expect(result.standardError.contains("the database \(directory.database) is in use by a running streamd (process \(daemon.process.processIdentifier))"))
        #expect(result.standardError.contains("Drop --db to verify through that daemon"))
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
    }

    @Test func offlineVerifyReadsAStoppedDaemonsFileAndFindsCorruption() throws {
        let directory = try ShortTemporaryDirectory()
        let daemon = try DaemonProcess.serving(directory)
        let ctl = Ctl(socket: directory.socket)
        try ctl.succeed("publish", "orders", input: (1...100).map { "order number \($0) of many\n" }.joined())
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)

        #expect(try ctl.succeed("verify", "--db", directory.database)
            == "verified \(directory.database): 1 stream, 1 block, 100 events: no problems\n")
        let clean = try ctl.json("verify", "--db", directory.database)
        #expect(clean["source"]?.string == "file" && clean["database"]?.string == directory.database && clean["ok"]?.bool == true)

        try DamagedDatabase.corruptFirstBlock(of: directory.database)
        let broken = try ctl.run("verify", "--db", directory.database)
        #expect(broken.status == 1)
        #expect(broken.standardOutput.contains("  stream orders sequences 1...100: "), "\(broken)")
        #expect(broken.standardError.contains("streamctl: verify found 1 problem."))
        let report = try JSONValue.parse(try ctl.run("verify", "--db", directory.database, "--json").output)
        #expect(report["ok"]?.bool == false)
        #expect(report["problems"]?[0]?["first_sequence"]?.int == 1 && report["problems"]?[0]?["last_sequence"]?.int == 100)
    }

    @Test func offlineVerifyOfAMissingFileSaysWhichPath() throws {
        let directory = try ShortTemporaryDirectory()
        let result = try Ctl(socket: directory.socket).run("verify", "--db", directory.database)
        #expect(result.status == 1)
        #expect(result.standardError.contains("no database at \(directory.database)"))
        #expect(!FileManager.default.fileExists(atPath: directory.database), "verify created the database it was asked to check")
    }

    @Test func offlineVerifyOfADirectorySaysSoAndLeavesNoLockFile() throws {
        let directory = try ShortTemporaryDirectory()
        let result = try Ctl(socket: directory.socket).run("verify", "--db", directory.path)
        #expect(result.status == 1)
        #expect(result.standardError.contains("\(directory.path) is a directory, not a database file"), "\(result)")
        #expect(!result.standardError.contains("SQLite"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: directory.path + ".lock"))
    }

    @Test func offlineVerifyThroughASymlinkSeesTheLockOfADaemonOnTheRealPath() throws {
        let directory = try ShortTemporaryDirectory()
        let daemon = try DaemonProcess.serving(directory)
        let other = try ShortTemporaryDirectory()
        let link = other.path + "/link.sqlite"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: directory.database)
        let result = try Ctl(socket: directory.socket).run("verify", "--db", link)
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.contains("is in use by a running streamd (process \(daemon.process.processIdentifier))"), "\(result)")
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() == 0)
        #expect(try Ctl(socket: directory.socket).succeed("verify", "--db", link).contains("no problems"))
    }
}
