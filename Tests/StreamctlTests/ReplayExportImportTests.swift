import Foundation
import StreamdTestSupport
import Testing

/// `replay`, `export` and `import` against a real daemon.
@Suite struct ReplayExportImportTests {
    static let shared = SharedDaemon.start()

    @Test func replayCopiesARangeIntoAnotherStream() throws {
        let ctl = try Ctl(Self.shared)
        let (source, target) = (uniqueStream("src"), uniqueStream("dst"))
        try ctl.succeed("publish", source, input: (1...10).map { "e\($0)\n" }.joined())
        #expect(try ctl.succeed("replay", source, "--to", target, "--from-seq", "3", "--to-seq", "5")
            == "replayed 3 events of \(source) (sequences 3...5) into \(target) (sequences 1...3)\n")
        #expect(try ctl.run("tail", target, "--all").lines == ["e3", "e4", "e5"])
        let summary = try ctl.json("replay", source, "--to", target, "--last", "2", "--speed", "1000")
        #expect(summary["events"]?.int == 2 && summary["target_first_sequence"]?.int == 4 && summary["target_last_sequence"]?.int == 5)
        #expect(try ctl.run("tail", target, "--last", "2").lines == ["e9", "e10"])
    }

    @Test func replayAtOriginalPaceWaitsAsLongAsTheEventsWereApart() throws {
        let ctl = try Ctl(Self.shared)
        let (source, target) = (uniqueStream("pace"), uniqueStream("paced"))
        try ctl.succeed("publish", source, "first")
        Thread.sleep(forTimeInterval: 1)  // not a wait for something: the two events must be apart in time
        try ctl.succeed("publish", source, "second")
        func apart(_ stream: String) throws -> Double {
            let events = try #require(try ctl.json("tail", stream, "--all")["events"]?.array)
            try #require(events.count == 2, "\(events)")
            return Double((events[1]["timestamp_us"]?.int ?? 0) - (events[0]["timestamp_us"]?.int ?? 0)) / 1e6
        }
        try ctl.succeed("replay", source, "--to", target, "--pace", "original")
        // Copied at the original pace, the copies are as far apart as the originals (less the jitter of
        // two commits); copied at once, they would be milliseconds apart.
        let (original, copied) = (try apart(source), try apart(target))
        #expect(copied >= original * 0.9, "the copies are \(copied) s apart, the originals \(original) s")
        #expect(try ctl.run("tail", target).lines == ["first", "second"])
        #expect(try ctl.run("replay", source, "--to", target, "--pace", "fast").status == 64)
        #expect(try ctl.run("replay", source, "--to", source).status == 64)
    }

    @Test func replayRefusesASpeedOutsideItsRangeInsteadOfCrashing() throws {
        let ctl = try Ctl(Self.shared)
        let (source, target) = (uniqueStream("speed"), uniqueStream("sped"))
        try ctl.succeed("publish", source, "first")
        try ctl.succeed("publish", source, "second")  // a later commit, so the two timestamps differ
        for speed in ["1e-300", "0.0001", "1e7", "0", "-2", "nan", "inf"] {
            let result = try ctl.run("replay", source, "--to", target, "--speed=\(speed)")
            #expect(result.status == 64, "--speed \(speed): \(result)")
            #expect(result.standardError.contains("--speed must be between 0.001 and 1000000"), "--speed \(speed): \(result)")
        }
        #expect(try ctl.json("replay", source, "--to", target, "--speed", "1000000")["events"]?.int == 2)
    }

    @Test func exportAndImportRoundTripAnyBytesThroughAFile() throws {
        let ctl = try Ctl(Self.shared)
        let (source, copy) = (uniqueStream("exp"), uniqueStream("imp"))
        try ctl.succeed("publish", source, "text é")
        try ctl.run(["publish", source], input: Data([0x00, 0xFF, 0x0A]))
        try ctl.succeed("publish", source, input: (1...1_500).map { "n\($0)\n" }.joined())
        let directory = try ShortTemporaryDirectory()
        let file = directory.path + "/export.ndjson"
        #expect(try ctl.succeed("export", source, "--output", file) == "exported 1502 events of \(source) to \(file)\n")
        let exported = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
        #expect(exported.count == 1_502)
        #expect(try JSONValue.parse(String(exported[1]))["encoding"]?.string == "base64")

        #expect(try ctl.succeed("import", copy, "--input", file) == "imported 1502 events into \(copy) (sequences 1...1502)\n")
        let original = try ctl.run("tail", source, "--all").output
        #expect(try ctl.run("tail", copy, "--all").output == original)
        #expect(try ctl.json("export", source, "--output", file, "--last", "5")["events"]?.int == 5)
    }

    @Test func exportWritesToStandardOutputAndImportReadsStandardInput() throws {
        let ctl = try Ctl(Self.shared)
        let (source, copy) = (uniqueStream("pipe"), uniqueStream("piped"))
        try ctl.succeed("publish", source, input: "a\nb\n")
        let ndjson = try ctl.succeed("export", source)
        #expect(ndjson.split(separator: "\n").count == 2)
        let summary = try ctl.json("import", copy, input: ndjson)
        #expect(summary["events"]?.int == 2 && summary["input"]?.string == "-")
        #expect(try ctl.run("tail", copy).lines == ["a", "b"])
        // No progress bar when standard error is not a terminal.
        #expect(try ctl.run("export", source).standardError.isEmpty)
    }

    @Test func importStopsAtALineThatIsNotAnEvent() throws {
        let ctl = try Ctl(Self.shared)
        let stream = uniqueStream("badimp")
        let result = try ctl.run("import", stream, input: "{\"payload\":\"ok\"}\n\n{\"nope\":1}\n")
        #expect(result.status == 1)
        #expect(result.standardError.contains("line 3 of standard input: it is not an exported event"))
        #expect(result.standardError.contains("\"payload\" is missing"))
        let missing = try ctl.run("import", stream, "--input", "/nonexistent/file.ndjson")
        #expect(missing.status == 1 && missing.standardError.contains("cannot read /nonexistent/file.ndjson"))
        #expect(try ctl.run("export", stream, "--json").status == 64)
    }

    @Test func importFromADirectorySaysItIsADirectory() throws {
        let ctl = try Ctl(Self.shared)
        let directory = try ShortTemporaryDirectory()
        let result = try ctl.run("import", uniqueStream("dirimp"), "--input", directory.path)
        #expect(result.status == 1)
        #expect(result.standardError.contains("\(directory.path) is a directory, not an NDJSON file"), "\(result)")
        #expect(!result.standardError.contains("NSCocoaErrorDomain"), "\(result)")
    }
}

/// The progress bar of `export` and `import`, which appears only when standard error is a terminal.
@Suite struct ProgressBarTests {
    static let shared = SharedDaemon.start()

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs script(1) from util-linux for a pseudo-terminal"))
    func onATerminalExportAndImportDrawAProgressBarOnStandardError() throws {
        let socket = try Self.shared.get().socket
        let ctl = Ctl(socket: socket)
        let (source, copy) = (uniqueStream("bar"), uniqueStream("bar-copy"))
        try ctl.succeed("publish", source, input: (1...300).map { "n\($0)\n" }.joined())
        let directory = try ShortTemporaryDirectory()
        let file = directory.path + "/export.ndjson"
        let streamctl = DaemonProcess.builtExecutable(named: "streamctl")
        // script(1) runs the command on a pseudo-terminal and copies what it prints to its own output.
        let export = try ToolProcess.run(
            path: "/usr/bin/script", ["-qec", "'\(streamctl)' export \(source) --output \(file)", "/dev/null"],
            environment: ["STREAMD_SOCKET": socket])
        #expect(export.status == 0, "\(export)")
        #expect(export.standardOutput.contains("exporting \(source) [##############################] 100% 300/300"), "\(export)")
        let imported = try ToolProcess.run(
            path: "/usr/bin/script", ["-qec", "'\(streamctl)' import \(copy) --input \(file)", "/dev/null"],
            environment: ["STREAMD_SOCKET": socket])
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.standardOutput.contains("importing into \(copy) [##############################] 100%"), "\(imported)")
        #expect(try ctl.json("info", copy)["count"]?.int == 300)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs script(1) from util-linux for a pseudo-terminal"))
    func theExportBarCountsOnlyTheEventsOfTheRangeAsked() throws {
        let socket = try Self.shared.get().socket
        let ctl = Ctl(socket: socket)
        let source = uniqueStream("bar-range")
        try ctl.succeed("publish", source, input: (1...300).map { "n\($0)\n" }.joined())
        let directory = try ShortTemporaryDirectory()
        let streamctl = DaemonProcess.builtExecutable(named: "streamctl")
        for (range, total) in [("--from-seq 101 --to-seq 150", 50), ("--from-seq 251", 50), ("--to-seq 20", 20), ("--last 30 --to-seq 280", 10)] {
            let export = try ToolProcess.run(
                path: "/usr/bin/script", ["-qec", "'\(streamctl)' export \(source) \(range) --output \(directory.path)/e.ndjson", "/dev/null"],
                environment: ["STREAMD_SOCKET": socket])
            #expect(export.status == 0, "\(export)")
            #expect(export.standardOutput.contains("[##############################] 100% \(total)/\(total)"), "\(range): \(export)")
        }
    }
}
