import Foundation
import StreamdTestSupport
import Testing

/// The DocC catalogs of the public modules build with warnings as errors, so a broken symbol link, an
/// unknown parameter in a doc comment or an article that names a symbol that is gone fails `swift test`.
///
/// The build runs in a scratch folder of its own (`.build/docs-check`): the `swift test` running this
/// holds the lock of `.build`, and a nested `swift package` on the same folder would wait for it.
@Suite(.serialized) struct DocumentationBuildTests {
    /// The package's root directory.
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    /// The targets with a `.docc` catalog.
    static let documentedTargets = ["Reactive", "StreamModel", "EventLog", "StreamClient"]

    @Test func theCatalogsOfThePublicModulesBuildWithoutWarnings() async throws {
        for target in Self.documentedTargets {
            let catalog = "\(Self.package)/Sources/\(target)/\(target).docc"
            #expect(FileManager.default.fileExists(atPath: catalog + "/\(target).md"), "\(catalog) has no landing page")
        }
        var arguments = ["swift", "package", "--package-path", Self.package, "--scratch-path", Self.package + "/.build/docs-check", "generate-documentation"]
        for target in Self.documentedTargets { arguments += ["--target", target] }
        // Combined: an article of one module may link to the symbols of the modules it depends on.
        // IDE output: one `path:line:column: warning: message` line per diagnostic.
        arguments += ["--enable-experimental-combined-documentation", "--disable-indexing", "--ide-console-output", "--warnings-as-errors"]
        let started = ContinuousClock.now
        // The first run builds the targets in its own folder (about four minutes on two cores); later
        // ones only what changed (about half a minute).
        let result = try await onOwnThread { [arguments] in try ToolProcess.run(path: "/usr/bin/env", arguments, timeout: 1_200) }
        print("DocumentationBuildTests: generate-documentation took \(ContinuousClock.now - started)")
        let diagnostics = (result.standardOutput + "\n" + result.standardError).components(separatedBy: "\n")
            .filter { $0.contains(": warning: ") || $0.contains(": error: ") || $0.hasPrefix("warning: ") || $0.hasPrefix("error: ") }
        let unexpected = Set(diagnostics)
        #expect(result.status == 0, "the documentation build failed:\n\(unexpected.sorted().joined(separator: "\n"))\n\(result)")
        #expect(unexpected.isEmpty, "the documentation build reported:\n\(unexpected.sorted().joined(separator: "\n"))")
        let outputs = Self.package + "/.build/docs-check/plugins/Swift-DocC/outputs/intermediates"
        let pages = ["Reactive": ["reactive"], "StreamModel": ["streammodel", "streammodel/thethreedoors", "streammodel/semantics"],
                     "EventLog": ["eventlog"], "StreamClient": ["streamclient", "streamclient/gettingstarted"]]
        for (target, names) in pages {
            for name in names {
                let page = "\(outputs)/\(target).doccarchive/data/documentation/\(name).json"
                #expect(FileManager.default.fileExists(atPath: page), "the documentation has no page \(page)")
            }
        }
    }
}
