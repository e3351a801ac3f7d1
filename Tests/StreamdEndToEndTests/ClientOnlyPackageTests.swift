import Foundation
import StreamdTestSupport
import Testing

/// A package of its own that depends only on the `StreamClient` product, built from scratch with
/// pkg-config unable to find SQLite or zlib: it builds, runs, and its executable links neither library
/// (`ldd`), and none of the log's targets is compiled for it.
@Suite struct ClientOnlyPackageTests {
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    @Test func aProgramThatOnlyTalksToTheDaemonBuildsAndLinksWithoutSQLiteOrZlib() async throws {
        let directory = try ShortTemporaryDirectory()
        let root = directory.path + "/client-only"
        try FileManager.default.createDirectory(atPath: root + "/Sources/ClientOnly", withIntermediateDirectories: true)
        try """
            // swift-tools-version: 6.1
            import PackageDescription

            let package = Package(
                name: "ClientOnly",
                dependencies: [.package(path: "\(Self.package)")],
                targets: [
                    .executableTarget(name: "ClientOnly", dependencies: [.product(name: "StreamClient", package: "\((Self.package as NSString).lastPathComponent)")]),
                ],
                swiftLanguageModes: [.v6]
            )
            """.write(toFile: root + "/Package.swift", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: Self.package + "/Tests/Fixtures/ClientOnly/main.swift", toPath: root + "/Sources/ClientOnly/main.swift")

        let build = try await onOwnThread {
            try ToolProcess.run(
                path: "/usr/bin/env", ["swift", "build", "--package-path", root],
                environment: ["PKG_CONFIG_LIBDIR": directory.path + "/no-pkg-config"], timeout: 900)
        }
        try #require(build.status == 0, "the client-only package did not build: \(build)")

        let executable = root + "/.build/debug/ClientOnly"
        let run = try ToolProcess.run(path: executable, [])
        #expect(run.status == 0 && run.standardOutput.contains("203.0"), "\(run)")

        let ldd = try ToolProcess.run(path: "/usr/bin/ldd", [executable])
        try #require(ldd.status == 0, "\(ldd)")
        #expect(ldd.standardOutput.contains("libswiftCore"), "ldd shows the libraries: \(ldd.standardOutput)")
        for library in ["libsqlite3", "libz."] {
            #expect(!ldd.standardOutput.contains(library), "the client links \(library): \(ldd.standardOutput)")
        }
        // `.build/debug` is a symbolic link, which the enumerator does not follow: list what it points to.
        let built = URL(fileURLWithPath: root + "/.build/debug").resolvingSymlinksInPath().path
        let objects = FileManager.default.enumerator(atPath: built)?.compactMap { $0 as? String } ?? []
        #expect(objects.contains { $0.hasPrefix("StreamClient.build/") && $0.hasSuffix(".o") }, "no client objects listed under \(built)")
        let logObjects = objects.filter { path in
            path.hasSuffix(".o") && ["EventLog.build/", "CSQLiteWriteMerge.build/"].contains { path.hasPrefix($0) }
        }
        #expect(logObjects.isEmpty, "the log's targets were compiled for the client: \(logObjects)")
    }
}
