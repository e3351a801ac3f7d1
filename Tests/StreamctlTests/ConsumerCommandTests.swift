import Foundation
import StreamdTestSupport
import Testing

/// `consumer add/ls/info/reset/rm` and `next` against a real daemon.
@Suite struct ConsumerCommandTests {
    static let shared = SharedDaemon.start()

    @Test func nextPrintsTheNextEventsAndAcknowledgesThemUnlessToldNot() throws {
        let ctl = try Ctl(Self.shared)
        let stream = uniqueStream("consume")
        try ctl.succeed("publish", stream, input: "a\nb\nc\nd\n")
        #expect(try ctl.succeed("consumer", "add", stream, "billing", "--ack-wait", "1s", "--max-deliver", "5")
            == "added consumer billing to \(stream): next 1, ack wait 1s, max deliver 5, max pending 1000\n")
        #expect(try ctl.succeed("next", stream, "--consumer", "billing") == "a\n")
        #expect(try ctl.succeed("next", stream, "--consumer", "billing", "--count", "2") == "b\nc\n")
        let held = try ctl.run("next", stream, "--consumer", "billing", "--no-ack", "--ndjson")
        #expect(held.status == 0 && held.lines.count == 1 && held.lines[0].contains(#""deliveries":1"#) && held.lines[0].contains(#""sequence":4"#), "\(held)")
        let info = try ctl.json("consumer", "info", stream, "billing")
        #expect(info["ack_floor"]?.int == 3 && info["next_sequence"]?.int == 5 && info["pending"]?.int == 1, "\(info)")
        // Not acknowledged: it comes again once its ack wait ran out, counted.
        let again = try ctl.json("next", stream, "--consumer", "billing", "--wait", "5s")
        #expect(again["events"]?.array?.first?["deliveries"]?.int == 2, "\(again)")
        #expect(try ctl.json("consumer", "info", stream, "billing")["ack_floor"]?.int == 4)
        let none = try ctl.run("next", stream, "--consumer", "billing", "--wait", "200ms")
        #expect(none.status == 1 && none.standardOutput.isEmpty)
        #expect(none.standardError.contains("no event of consumer billing on \(stream) arrived within 200ms; it may have none left"), "\(none.standardError)")
    }

    @Test func consumersAreListedResetAndRemovedWithSentencesForWhatIsWrong() throws {
        let ctl = try Ctl(Self.shared)
        let stream = uniqueStream("consumers")
        try ctl.succeed("publish", stream, input: "1\n2\n3\n")
        try ctl.succeed("consumer", "add", stream, "audit", "--from", "new")
        try ctl.succeed("consumer", "add", stream, "billing", "--dead-letter", stream + ".dead", "--max-deliver", "2")
        let listing = try ctl.run("consumer", "ls", stream).lines
        #expect(listing.count == 3 && listing[0].hasPrefix("CONSUMER") && listing[1].hasPrefix("audit") && listing[2].hasPrefix("billing"), "\(listing)")
        #expect(try ctl.succeed("consumer", "reset", stream, "audit", "--to-seq", "2") == "reset consumer audit of \(stream): next 2, lag 2 events\n")
        let text = try ctl.succeed("consumer", "info", stream, "billing")
        #expect(text.contains("dead letters to \(stream).dead") && text.contains("lag           3 events"), "\(text)")
        #expect(try ctl.succeed("consumer", "rm", stream, "audit") == "deleted consumer audit of \(stream)\n")

        let missing = try ctl.run("consumer", "info", stream, "audit")
        #expect(missing.status == 1 && missing.standardError.contains("has no consumer named \"audit\""), "\(missing)")
        let clash = try ctl.run("consumer", "add", stream, "billing", "--ack-wait", "5s")
        #expect(clash.status == 1 && clash.standardError.contains("with another configuration; delete it first, or pick another name."), "\(clash)")
        let badName = try ctl.run("consumer", "add", stream, "no good")
        #expect(badName.status == 64 && badName.standardError.contains("consumer name \"no good\""), "\(badName)")
        let badWait = try ctl.run("consumer", "add", stream, "c", "--ack-wait", "2d")
        #expect(badWait.status == 64 && badWait.standardError.contains("The ack wait must be 1 ms to 1 day"), "\(badWait)")
        let badFrom = try ctl.run("consumer", "add", stream, "c", "--from", "yesterday")
        #expect(badFrom.status == 64 && badFrom.standardError.contains("--from must be all, new or a sequence"), "\(badFrom)")
    }
}
