import Foundation
import StreamdTestSupport
import Testing

/// Every verb's `--json` output against its definition in schemas/streamctl.schema.json.
@Suite struct JSONSchemaTests {
    static let shared = SharedDaemon.start()

    @Test func theCheckerCatchesMissingKeysWrongTypesAndUnknownKeys() throws {
        let schema = try SchemaChecker.streamctl()
        #expect(schema.problems(of: try JSONValue.parse(#"{"streams":[]}"#), against: "ls").isEmpty)
        #expect(schema.problems(of: try JSONValue.parse(#"{}"#), against: "ls") == [#"$: required key "streams" is missing"#])
        #expect(schema.problems(of: try JSONValue.parse(#"{"streams":3}"#), against: "ls") == ["$.streams: 3 is not of type array"])
        #expect(schema.problems(of: try JSONValue.parse(#"{"streams":[],"x":1}"#), against: "ls") == [#"$: key "x" is not in the schema"#])
        let event = #"{"sequence":1.5,"timestamp":"t","timestamp_us":1,"payload":"p","encoding":"hex"}"#
        #expect(schema.problems(of: try JSONValue.parse(event), against: "event").count == 2)
    }

    @Test func everyVerbPrintsOneDocumentThatMatchesItsDefinition() throws {
        let ctl = try Ctl(Self.shared)
        let schema = try SchemaChecker.streamctl()
        let (stream, other, made) = (uniqueStream("schema"), uniqueStream("schema-copy"), uniqueStream("schema-made"))
        let directory = try ShortTemporaryDirectory()
        let file = directory.path + "/export.ndjson"
        let runs: [(definition: String, arguments: [String], input: String?)] = [
            ("publish", ["publish", stream, "one"], nil),
            ("publish", ["publish", stream], "two\nthree\n"),
            ("ls", ["ls"], nil),
            ("info", ["info", stream], nil),
            ("stats", ["stats"], nil),
            ("tail", ["tail", stream, "--all"], nil),
            ("create", ["create", made, "--capacity", "5", "--max-age", "1h", "--max-bytes", "1M", "--dedup-window", "2m"], nil),
            ("config", ["config", made, "--replay-last", "--dedup-events", "500"], nil),
            ("replay", ["replay", stream, "--to", other], nil),
            ("export", ["export", stream, "--output", file], nil),
            ("import", ["import", other, "--input", file], nil),
            ("truncate", ["truncate", stream, "--keep", "1", "--dry-run"], nil),
            ("truncate", ["truncate", stream, "--keep", "1"], nil),
            ("verify", ["verify"], nil),
            ("verify", ["verify", stream], nil),
            ("rm", ["rm", made], nil),
            ("consumer-add", ["consumer", "add", stream, "billing", "--max-deliver", "3", "--dead-letter", made], nil),
            ("consumer-ls", ["consumer", "ls", stream], nil),
            ("next", ["next", stream, "--consumer", "billing"], nil),
            ("consumer-info", ["consumer", "info", stream, "billing"], nil),
            ("consumer-reset", ["consumer", "reset", stream, "billing", "--to-seq", "1"], nil),
            ("consumer-rm", ["consumer", "rm", stream, "billing"], nil),
        ]
        var covered = Set<String>()
        for run in runs {
            let result = try ctl.run(run.arguments + ["--json"], input: run.input.map { Data($0.utf8) })
            #expect(result.status == 0, "\(run.arguments): \(result)")
            #expect(result.lines.count == 1, "\(run.arguments) printed more than one line")
            let document = try JSONValue.parse(result.output)
            #expect(schema.problems(of: document, against: run.definition) == [], "\(run.arguments): \(document)")
            covered.insert(run.definition)
        }
        #expect(covered == [
            "ls", "info", "stats", "tail", "publish", "create", "config", "truncate", "rm", "replay", "export", "import", "verify",
            "consumer-add", "consumer-ls", "next", "consumer-info", "consumer-reset", "consumer-rm",
        ])
    }
}
