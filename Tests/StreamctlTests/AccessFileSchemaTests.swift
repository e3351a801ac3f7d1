import Foundation
import Testing

/// schemas/streamd-acl.schema.json accepts the access files streamd accepts and refuses the ones it
/// refuses for their form (names that do not exist on the system are the daemon's to find).
@Suite struct AccessFileSchemaTests {
    static let good = [
        #"{"rules": [{"user": "alice", "streams": "public.*", "allow": ["read"]}, {"group": "ops", "streams": "*", "allow": ["read", "publish", "admin"]}]}"#,
        #"{"$schema": "../schemas/streamd-acl.schema.json", "rules": []}"#,
        #"{"rules": [{"user": 1001, "streams": "s?", "allow": ["publish"]}, {"group": "2000", "streams": "a-b_c.*", "allow": ["admin"]}]}"#,
    ]

    static let bad: [(text: String, problem: String)] = [
        (#"{}"#, #"$: required key "rules" is missing"#),
        (#"{"rules": [], "extra": 1}"#, #"$: key "extra" is not in the schema"#),
        (#"{"rules": {}}"#, "$.rules: {} is not of type array"),
        (#"{"rules": [{"users": "alice", "streams": "*", "allow": ["read"]}]}"#, #"$.rules[0]: key "users" is not in the schema"#),
        (#"{"rules": [{"user": "alice", "streams": "*", "allow": ["write"]}]}"#, #"$.rules[0].allow[0]: "write" is not one of"#),
        (#"{"rules": [{"user": "alice", "streams": "*", "allow": []}]}"#, "$.rules[0].allow: has 0 items, fewer than 1"),
        (#"{"rules": [{"user": "alice", "group": "ops", "streams": "*", "allow": ["read"]}]}"#, "$.rules[0]: matches 2 of the 2 choices of oneOf"),
        (#"{"rules": [{"streams": "*", "allow": ["read"]}]}"#, "$.rules[0]: matches 0 of the 2 choices of oneOf"),
        (#"{"rules": [{"user": "alice", "streams": "a/b", "allow": ["read"]}]}"#, #"$.rules[0].streams: "a/b" does not match"#),
        (#"{"rules": [{"user": "alice", "streams": "", "allow": ["read"]}]}"#, #"$.rules[0].streams: "" is shorter than 1 characters"#),
        (#"{"rules": [{"user": -1, "streams": "*", "allow": ["read"]}]}"#, "$.rules[0].user: -1.0 is below the minimum 0.0"),
        (#"{"rules": [{"user": "alice", "allow": ["read"]}]}"#, #"$.rules[0]: required key "streams" is missing"#),
    ]

    @Test func theAccessFilesOfTheDocumentationConform() throws {
        let schema = try SchemaChecker.named("streamd-acl.schema.json")
        for text in Self.good {
            #expect(schema.problems(of: try JSONValue.parse(text), against: "acl") == [], "\(text)")
        }
    }

    @Test func eachBadFormIsRefusedForItsReason() throws {
        let schema = try SchemaChecker.named("streamd-acl.schema.json")
        for (text, problem) in Self.bad {
            let problems = schema.problems(of: try JSONValue.parse(text), against: "acl")
            #expect(problems.contains { $0.hasPrefix(problem) }, "\(text): \(problems)")
        }
    }

    @Test func theSchemaStartsAtTheAccessFileDefinition() throws {
        let schema = try SchemaChecker.named("streamd-acl.schema.json")
        #expect(schema.root["$ref"]?.string == "#/$defs/acl")
    }
}
