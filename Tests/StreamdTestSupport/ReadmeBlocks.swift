import Foundation

/// The README's Swift code blocks, for tests that run them verbatim: each such test holds the lines of
/// its block, in order, and checks that with `missingLine(of:in:)`, so the README cannot drift from
/// code that compiles and does what it says.
public enum ReadmeBlocks {
    private static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The package's README.md.
    public static var readme: String {
        get throws { try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8) }
    }

    /// The README's ```swift block that starts with `prefix`, or nil.
    public static func swiftBlock(startingWith prefix: String) throws -> String? {
        try readme.components(separatedBy: "```swift\n").dropFirst()
            .compactMap { $0.components(separatedBy: "```").first }
            .first { $0.hasPrefix(prefix) }
    }

    /// The first line of `block` (blank lines and imports aside) that does not stand in `source`
    /// after the lines before it; nil when every line does.
    public static func missingLine(of block: String, in source: String) -> String? {
        var remaining = source[...]
        for line in block.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) })
        where !line.isEmpty && !line.hasPrefix("import ") {
            guard let found = remaining.range(of: line) else { return line }
            remaining = remaining[found.upperBound...]
        }
        return nil
    }

    /// `missingLine(of:in:)` for the program `Tools/<tool>/main.swift` of this package.
    public static func missingLine(of block: String, inTool tool: String) throws -> String? {
        missingLine(of: block, in: try String(contentsOf: packageRoot.appendingPathComponent("Tools/\(tool)/main.swift"), encoding: .utf8))
    }
}
