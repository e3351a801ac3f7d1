/// A JSON value that remembers where in its text it began, so an access file's problems can be
/// reported by line and column.
///
/// Only what an access file needs: objects keep their members in order (duplicates included, so
/// they can be refused), numbers keep their text.
/// Values are Sendable.
struct PositionedJSON: Sendable {
    /// A place in the text: 1-based line and column (in characters).
    struct Position: Sendable, Hashable, CustomStringConvertible {
        /// The line, from 1.
        var line: Int
        /// The column in characters (Unicode scalars), from 1.
        var column: Int
        /// `line 3, column 14`.
        var description: String { "line \(line), column \(column)" }
    }

    /// A member of an object: its key, where the key starts, and its value.
    struct Member: Sendable {
        /// The key, unescaped.
        var key: String
        /// Where the key's opening quote is.
        var position: Position
        /// The member's value.
        var value: PositionedJSON
    }

    /// What a JSON value is, with its contents.
    enum Value: Sendable {
        /// Members in the order written.
        case object([Member])
        /// Items in order.
        case array([PositionedJSON])
        /// A string, unescaped.
        case string(String)
        /// A number, as written (checked to be one).
        case number(String)
        /// `true` or `false`.
        case bool(Bool)
        /// `null`.
        case null
    }

    /// The value.
    var value: Value
    /// Where the value starts.
    var position: Position

    /// What a value is, for messages: "an object", "a string", ...
    var kind: String {
        switch value {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }

    /// Why a text is not JSON, and where.
    struct SyntaxError: Error, Sendable {
        /// Where the text stops being JSON.
        var position: Position
        /// What was found and what was expected there.
        var reason: String
    }

    /// The value `text` holds, which must be one JSON value with only white space around it.
    static func parse(_ text: String) throws(SyntaxError) -> PositionedJSON {
        var parser = Parser(Array(text.unicodeScalars))
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.atEnd else { throw parser.failure("unexpected \(parser.shown) after the JSON value") }
        return value
    }

    /// A recursive-descent reader over the text's Unicode scalars that counts lines and columns.
    /// Not Sendable-relevant: it lives on one thread for one parse.
    private struct Parser {
        let scalars: [Unicode.Scalar]
        var index = 0
        var line = 1
        var column = 1

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        var atEnd: Bool { index >= scalars.count }
        var position: Position { Position(line: line, column: column) }
        var current: Unicode.Scalar? { atEnd ? nil : scalars[index] }
        var shown: String { current.map { "'\(Character($0))'" } ?? "end of file" }

        func failure(_ reason: String) -> SyntaxError { SyntaxError(position: position, reason: reason) }

        mutating func advance() {
            if current == "\n" { line += 1; column = 1 } else { column += 1 }
            index += 1
        }

        mutating func skipSpace() {
            while let scalar = current, scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" { advance() }
        }

        mutating func expect(_ word: String) throws(SyntaxError) {
            let start = self
            for scalar in word.unicodeScalars {
                guard current == scalar else { self = start; throw failure("unexpected \(shown); expected a JSON value") }
                advance()
            }
        }

        mutating func value(depth: Int) throws(SyntaxError) -> PositionedJSON {
            guard depth < 64 else { throw failure("values are nested more than 64 deep") }
            let start = position
            switch current {
            case "{": return PositionedJSON(value: .object(try object(depth: depth)), position: start)
            case "[": return PositionedJSON(value: .array(try array(depth: depth)), position: start)
            case "\"": return PositionedJSON(value: .string(try string()), position: start)
            case "t": try expect("true"); return PositionedJSON(value: .bool(true), position: start)
            case "f": try expect("false"); return PositionedJSON(value: .bool(false), position: start)
            case "n": try expect("null"); return PositionedJSON(value: .null, position: start)
            case let scalar? where scalar == "-" || ("0"..."9").contains(scalar):
                var text = ""
                while let scalar = current, "+-.eE0123456789".unicodeScalars.contains(scalar) {
                    text.unicodeScalars.append(scalar)
                    advance()
                }
                guard Double(text) != nil else { throw SyntaxError(position: start, reason: "\(text) is not a number") }
                return PositionedJSON(value: .number(text), position: start)
            default:
                throw failure("unexpected \(shown); expected a JSON value")
            }
        }

        mutating func object(depth: Int) throws(SyntaxError) -> [Member] {
            advance()
            var members: [Member] = []
            skipSpace()
            if current == "}" { advance(); return members }
            while true {
                skipSpace()
                let keyPosition = position
                guard current == "\"" else { throw failure("unexpected \(shown); expected a key in double quotes") }
                let key = try string()
                skipSpace()
                guard current == ":" else { throw failure("unexpected \(shown); expected ':' after the key \"\(key)\"") }
                advance()
                skipSpace()
                members.append(Member(key: key, position: keyPosition, value: try value(depth: depth + 1)))
                skipSpace()
                switch current {
                case ",": advance()
                case "}": advance(); return members
                default: throw failure("unexpected \(shown); expected ',' or '}'")
                }
            }
        }

        mutating func array(depth: Int) throws(SyntaxError) -> [PositionedJSON] {
            advance()
            var items: [PositionedJSON] = []
            skipSpace()
            if current == "]" { advance(); return items }
            while true {
                skipSpace()
                items.append(try value(depth: depth + 1))
                skipSpace()
                switch current {
                case ",": advance()
                case "]": advance(); return items
                default: throw failure("unexpected \(shown); expected ',' or ']'")
                }
            }
        }

        mutating func string() throws(SyntaxError) -> String {
            advance()
            var text = String.UnicodeScalarView()
            while true {
                guard let scalar = current else { throw failure("the string never ends (a '\"' is missing)") }
                switch scalar {
                case "\"":
                    advance()
                    return String(text)
                case "\\":
                    advance()
                    guard let escaped = current else { throw failure("the string never ends (a '\"' is missing)") }
                    let simple: [Unicode.Scalar: Unicode.Scalar] = ["\"": "\"", "\\": "\\", "/": "/", "b": "\u{8}", "f": "\u{C}", "n": "\n", "r": "\r", "t": "\t"]
                    if let replacement = simple[escaped] {
                        text.append(replacement)
                        advance()
                    } else if escaped == "u" {
                        advance()
                        var hex = ""
                        for _ in 0..<4 {
                            guard let digit = current, digit.properties.isASCIIHexDigit else { throw failure("\\u needs four hexadecimal digits") }
                            hex.unicodeScalars.append(digit)
                            advance()
                        }
                        // Surrogate pairs are not needed for names and patterns; a lone one is refused.
                        guard let value = UInt32(hex, radix: 16).flatMap(Unicode.Scalar.init) else { throw failure("\\u\(hex) is not a character") }
                        text.append(value)
                    } else {
                        throw failure("unknown escape '\\\(Character(escaped))' in a string")
                    }
                case let scalar where scalar.value < 0x20:
                    throw failure("a control character inside a string; write it as an escape")
                default:
                    text.append(scalar)
                    advance()
                }
            }
        }
    }
}
