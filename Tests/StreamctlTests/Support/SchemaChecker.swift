import Foundation

/// Checks a JSON value against the subset of JSON Schema that the schemas in schemas/ use:
/// `$ref` (to `#/$defs/…`), `type` (one or several), `enum`, `required`, `properties`,
/// `additionalProperties: false`, `items`, `minItems`, `minimum`, `minLength`, `maxLength`, `pattern`
/// and `oneOf`. Every other keyword is ignored.
struct SchemaChecker {
    let root: JSONValue

    /// The schema file of the repository.
    static func streamctl() throws -> SchemaChecker {
        try named("streamctl.schema.json")
    }

    /// The schema file `name` of the repository's schemas/ directory.
    static func named(_ name: String) throws -> SchemaChecker {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return SchemaChecker(root: try JSONValue.parse(Data(contentsOf: root.appendingPathComponent("schemas/\(name)"))))
    }

    /// The problems of `value` against the definition `name` of `$defs`; empty when it conforms.
    func problems(of value: JSONValue, against name: String) -> [String] {
        guard let definition = root["$defs"]?[name] else { return ["the schema has no definition \"\(name)\""] }
        var found: [String] = []
        check(value, definition, "$", &found)
        return found
    }

    private func check(_ value: JSONValue, _ schema: JSONValue, _ path: String, _ found: inout [String]) {
        if let reference = schema["$ref"]?.string {
            let name = reference.replacingOccurrences(of: "#/$defs/", with: "")
            guard let target = root["$defs"]?[name] else { return found.append("\(path): unknown $ref \(reference)") }
            check(value, target, path, &found)
        }
        if let type = schema["type"] {
            let allowed = type.array?.compactMap(\.string) ?? [type.string ?? ""]
            if !allowed.contains(where: { Self.value(value, is: $0) }) {
                return found.append("\(path): \(value) is not of type \(allowed.joined(separator: " or "))")
            }
        }
        if let options = schema["enum"]?.array, !options.contains(value) {
            found.append("\(path): \(value) is not one of \(options)")
        }
        if let minimum = schema["minimum"]?.double, let number = value.double, number < minimum {
            found.append("\(path): \(number) is below the minimum \(minimum)")
        }
        if let text = value.string {
            if let minimum = schema["minLength"]?.double, Double(text.count) < minimum {
                found.append("\(path): \(value) is shorter than \(Int(minimum)) characters")
            }
            if let maximum = schema["maxLength"]?.double, Double(text.count) > maximum {
                found.append("\(path): \(value) is longer than \(Int(maximum)) characters")
            }
            if let pattern = schema["pattern"]?.string, text.range(of: pattern, options: .regularExpression) == nil {
                found.append("\(path): \(value) does not match \(pattern)")
            }
        }
        if let choices = schema["oneOf"]?.array {
            let matching = choices.filter { choice in
                var problems: [String] = []
                check(value, choice, path, &problems)
                return problems.isEmpty
            }.count
            if matching != 1 { found.append("\(path): matches \(matching) of the \(choices.count) choices of oneOf, not exactly one") }
        }
        if case let .object(members) = value {
            for key in schema["required"]?.array?.compactMap(\.string) ?? [] where members[key] == nil {
                found.append("\(path): required key \"\(key)\" is missing")
            }
            let properties = schema["properties"]
            for (key, member) in members {
                if let property = properties?[key] {
                    check(member, property, "\(path).\(key)", &found)
                } else if schema["additionalProperties"] == .bool(false) {
                    found.append("\(path): key \"\(key)\" is not in the schema")
                }
            }
        }
        if case let .array(items) = value, let minimum = schema["minItems"]?.double, Double(items.count) < minimum {
            found.append("\(path): has \(items.count) items, fewer than \(Int(minimum))")
        }
        if case let .array(items) = value, let itemSchema = schema["items"] {
            for (index, item) in items.enumerated() { check(item, itemSchema, "\(path)[\(index)]", &found) }
        }
    }

    private static func value(_ value: JSONValue, is type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("integer", .integer), ("number", .integer), ("number", .number),
            ("string", .string), ("array", .array), ("object", .object):
            true
        default:
            false
        }
    }
}
