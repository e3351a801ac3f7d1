import Foundation
import StreamProtocol
import StreamdTestSupport
import Testing

/// `Tools/install.sh` run into a temporary prefix, from the binaries this test run built (the release
/// build the script makes by default is left out: it takes minutes), and what it installed checked:
/// runnable executables, man pages `man` renders, completion scripts that know the verbs, and unit
/// files `systemd-analyze verify` accepts.
@Suite(.serialized) struct InstallScriptTests {
    /// The package's root directory.
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    /// The directory of the executables this test run uses.
    static let builtDirectory = (DaemonProcess.executable as NSString).deletingLastPathComponent

    private func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    @Test func anInstallIntoATemporaryPrefixHasRunnableToolsManPagesCompletionsAndVerifiedUnits() async throws {
        let directory = try ShortTemporaryDirectory()
        let prefix = directory.path + "/usr"
        let result = try await onOwnThread { try ToolProcess.run(path: "/bin/bash", [Self.package + "/Tools/install.sh", "--from", Self.builtDirectory, "--prefix", prefix], timeout: 300) }
        try #require(result.status == 0, "install.sh failed: \(result)")
        try executablesPrintThePackageVersion(prefix)
        try manPagesRenderWithManAndDescribeTheOptionsAndVerbs(prefix)
        try completionScriptsForBashZshAndFishKnowTheVerbs(prefix)
        try unitFilesNameTheInstalledDaemon(prefix)
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") {
            try systemdAnalyzeVerifiesEveryUnitFile(prefix)
        } else {
            print("InstallScriptTests: systemd-analyze is not installed (Debian package systemd), so the unit files were not verified.")
        }
    }

    private func executablesPrintThePackageVersion(_ prefix: String) throws {
        for tool in ["streamd", "streamctl"] {
            let path = prefix + "/bin/" + tool
            #expect(FileManager.default.isExecutableFile(atPath: path), "\(path)")
            let version = try ToolProcess.run(path: path, ["--version"])
            #expect(version.status == 0 && version.standardOutput.contains(StreamdVersion.current), "\(tool): \(version)")
        }
    }

    private func manPagesRenderWithManAndDescribeTheOptionsAndVerbs(_ prefix: String) throws {
        let manuals = prefix + "/share/man/man1"
        let expected = ["streamd": ["--db", "--socket", "NOTIFY_SOCKET"], "streamctl": ["publish", "tail", "--socket"]]
        for (tool, words) in expected {
            let page = manuals + "/\(tool).1"
            let source = try text(page)
            #expect(source.contains(".Dt \(tool.uppercased()) 1") || source.contains(".TH"), "\(page) has no title macro")
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/man") else {
                print("InstallScriptTests: man is not installed (Debian package man-db), so \(tool).1 was checked as source only.")
                #expect(source.contains(".Sh NAME"))
                for word in words { #expect(source.contains(word.replacingOccurrences(of: "--", with: "")), "\(tool).1 does not mention \(word)") }
                continue
            }
            let rendered = try ToolProcess.run(path: "/usr/bin/man", ["-l", page], environment: ["MANPAGER": "cat", "MANWIDTH": "100", "PAGER": "cat"])
            #expect(rendered.status == 0, "\(rendered)")
            #expect(rendered.standardOutput.contains("NAME"), "\(tool).1 rendered no NAME section: \(rendered)")
            for word in words { #expect(rendered.standardOutput.contains(word), "\(tool).1 does not mention \(word)") }
        }
    }

    private func completionScriptsForBashZshAndFishKnowTheVerbs(_ prefix: String) throws {
        let share = prefix + "/share"
        for tool in ["streamd", "streamctl"] {
            let scripts = [
                "\(share)/bash-completion/completions/\(tool)",
                "\(share)/zsh/site-functions/_\(tool)",
                "\(share)/fish/vendor_completions.d/\(tool).fish",
            ]
            for script in scripts {
                let source = try text(script)
                #expect(source.contains(tool), "\(script)")
                let words = tool == "streamctl" ? ["publish", "tail", "verify"] : ["db", "durability", "socket-mode"]
                for word in words { #expect(source.contains(word), "\(script) does not mention \(word)") }
            }
            if tool == "streamctl" {
                // Stream names come from the running daemon (StreamNameCompletionTests).
                #expect(try text(scripts[0]).contains("---completion tail"))
            }
            let syntax = try ToolProcess.run(path: "/bin/bash", ["-n", scripts[0]])
            #expect(syntax.status == 0, "\(syntax)")
        }
    }

    private func unitFilesNameTheInstalledDaemon(_ prefix: String) throws {
        for scope in ["system", "user"] {
            let service = try text("\(prefix)/lib/systemd/\(scope)/streamd.service")
            #expect(service.contains("ExecStart=\(prefix)/bin/streamd"), "\(scope) service")
            #expect(service.contains("Type=notify"))
            #expect(!service.contains("@BINDIR@"))
            #expect(FileManager.default.fileExists(atPath: "\(prefix)/lib/systemd/\(scope)/streamd.socket"))
        }
        #expect(try text("\(prefix)/lib/sysusers.d/streamd.conf").contains("u     streamd"))
    }

    /// `systemd-analyze verify` on each unit (it checks that ExecStart names an executable, so the
    /// units are verified where they were installed, naming the installed daemon; a unit it only warns
    /// about still exits 0, so its standard error must be empty too), and the system service's
    /// sandboxing scored by `systemd-analyze security`.
    private func systemdAnalyzeVerifiesEveryUnitFile(_ prefix: String) throws {
        // A user manager needs a runtime directory to resolve %t.
        let runtime = try ShortTemporaryDirectory()
        for scope in ["system", "user"] {
            for unit in ["streamd.service", "streamd.socket"] {
                let path = "\(prefix)/lib/systemd/\(scope)/\(unit)"
                let arguments = (scope == "user" ? ["--user"] : []) + ["verify", "--man=no", path]
                let result = try ToolProcess.run(path: "/usr/bin/systemd-analyze", arguments, environment: ["XDG_RUNTIME_DIR": runtime.path], timeout: 60)
                #expect(result.status == 0 && result.standardError.isEmpty, "systemd-analyze \(arguments.joined(separator: " ")): \(result)")
            }
        }
        let security = try ToolProcess.run(path: "/usr/bin/systemd-analyze", [
            "security", "--offline=yes", "--threshold=20", "--no-pager", "\(prefix)/lib/systemd/system/streamd.service",
        ], timeout: 60)
        #expect(security.status == 0, "systemd-analyze security scores the system service above 2.0 (of 10): \(security)")
    }

    @Test func destdirStagesTheFilesWhileTheyNameThePrefix() async throws {
        let staging = try ShortTemporaryDirectory()
        let result = try await onOwnThread { try ToolProcess.run(path: "/bin/bash", [Self.package + "/Tools/install.sh", "--from", Self.builtDirectory, "--prefix", "/opt/streamd", "--destdir", staging.path], timeout: 300) }
        #expect(result.status == 0, "\(result)")
        #expect(FileManager.default.isExecutableFile(atPath: staging.path + "/opt/streamd/bin/streamctl"))
        #expect(try text(staging.path + "/opt/streamd/lib/systemd/system/streamd.service").contains("ExecStart=/opt/streamd/bin/streamd --socket-mode 660"))
        #expect(!FileManager.default.fileExists(atPath: "/opt/streamd"))
    }

    @Test func aStepThatFailsWithoutAWordStillEndsWithASentenceNamingIt() throws {
        // Executables that fail, silently, whatever they are asked (the completions step runs them).
        let directory = try ShortTemporaryDirectory()
        for tool in ["streamd", "streamctl", "generate-manual"] {
            let path = directory.path + "/" + tool
            try "#!/bin/sh\n[ \"$(basename \"$0\")\" = generate-manual ] && exit 0\nexit 1\n".write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, 0o755)
        }
        let result = try ToolProcess.run(
            path: "/bin/bash", [Self.package + "/Tools/install.sh", "--from", directory.path, "--prefix", directory.path + "/usr"],
            environment: ["STREAMD_GENERATE_MANUAL": directory.path + "/generate-manual"])
        #expect(result.status != 0)
        #expect(result.standardError.contains("install.sh: stopped at line"), "\(result)")
        #expect(result.standardError.contains("--generate-completion-script"), "\(result)")
    }

    @Test func anUnknownArgumentIsABadUsageSentence() throws {
        let result = try ToolProcess.run(path: "/bin/bash", [Self.package + "/Tools/install.sh", "--prefx", "/tmp/x"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("unknown argument \"--prefx\""))
    }
}
