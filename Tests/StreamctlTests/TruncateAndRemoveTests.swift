import Foundation
import StreamdTestSupport
import Testing

/// `truncate` (each rule, dry runs, past the end) and `rm` against a real daemon.
@Suite struct TruncateAndRemoveTests {
    static let shared = SharedDaemon.start()

    private func streamOfTen(_ ctl: Ctl) throws -> String {
        let stream = uniqueStream("trunc")
        try ctl.succeed("publish", stream, input: (1...10).map { "\($0)\n" }.joined())
        return stream
    }

    @Test func aDryRunSaysWhatWouldGoAndRemovesNothing() throws {
        let ctl = try Ctl(Self.shared)
        let stream = try streamOfTen(ctl)
        #expect(try ctl.succeed("truncate", stream, "--before-seq", "4", "--dry-run")
            == "would remove 3 events from \(stream) (sequences 1...3); it would start at sequence 4\n")
        let summary = try ctl.json("truncate", stream, "--keep", "2", "--dry-run")
        #expect(summary["dry_run"]?.bool == true && summary["removed"]?.int == 8)
        #expect(summary["first_removed"]?.int == 1 && summary["last_removed"]?.int == 8 && summary["first_sequence"]?.int == 9)
        #expect(try ctl.json("info", stream)["count"]?.int == 10)
    }

    @Test func beforeSequenceKeepAndOlderThanRemoveEvents() throws {
        let ctl = try Ctl(Self.shared)
        let stream = try streamOfTen(ctl)
        #expect(try ctl.succeed("truncate", stream, "--before-seq", "4")
            == "removed 3 events from \(stream) (sequences 1...3); it now starts at sequence 4\n")
        #expect(try ctl.succeed("truncate", stream, "--keep", "5") == "removed 2 events from \(stream) (sequences 4...5); it now starts at sequence 6\n")
        #expect(try ctl.run("tail", stream, "--all").lines == ["6", "7", "8", "9", "10"])
        #expect(try ctl.succeed("truncate", stream, "--older-than", "1h") == "removed 0 events from \(stream); it now starts at sequence 6\n")
        #expect(try ctl.succeed("truncate", stream, "--older-than", "2999-01-01T00:00:00Z")
            == "removed 5 events from \(stream) (sequences 6...10); it is now empty\n")
        // Sequences go on after a truncation.
        #expect(try ctl.succeed("publish", stream, "11") == "published 1 event to \(stream) (sequence 11)\n")
    }

    @Test func truncatingPastTheEndIsRefused() throws {
        let ctl = try Ctl(Self.shared)
        let stream = try streamOfTen(ctl)
        let result = try ctl.run("truncate", stream, "--before-seq", "50")
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("--before-seq 50 is past the end of \(stream), whose last sequence is 10; use --before-seq 11 to remove every event."))
        #expect(try ctl.json("info", stream)["count"]?.int == 10)
        #expect(try ctl.succeed("truncate", stream, "--before-seq", "11").contains("removed 10 events"))
    }

    @Test func truncateNeedsExactlyOneRule() throws {
        let ctl = try Ctl(Self.shared)
        #expect(try ctl.run("truncate", "s").status == 64)
        #expect(try ctl.run("truncate", "s", "--keep", "1", "--before-seq", "3").status == 64)
        #expect(try ctl.run("truncate", "s", "--older-than", "a while").status == 64)
    }

    @Test func rmDeletesTheStreamAndItsEvents() throws {
        let ctl = try Ctl(Self.shared)
        let stream = try streamOfTen(ctl)
        #expect(try ctl.succeed("rm", stream) == "deleted \(stream) (10 events)\n")
        let gone = try ctl.run("info", stream)
        #expect(gone.status == 1 && gone.standardError.contains("no stream named \"\(stream)\""))
        let again = try ctl.run("rm", stream)
        #expect(again.status == 1 && again.standardError.contains("no stream named \"\(stream)\""))
        // A stream of the same name starts again at 1.
        #expect(try ctl.succeed("publish", stream, "x") == "published 1 event to \(stream) (sequence 1)\n")
    }
}
