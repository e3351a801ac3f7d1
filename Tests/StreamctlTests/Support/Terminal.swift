import Foundation
import StreamdTestSupport

/// Runs the built `streamctl` on a real pseudo-terminal (python3's `pty` module; stateless), so standard input,
/// output and error are a terminal as they are for a person, and answers its `[y/N]` question.
enum Terminal {
    /// The driver: forks the command on a new pseudo-terminal, writes ANSWER and a newline once the
    /// prompt shows (or never, when ANSWER is `-`), collects everything until the command ends, prints
    /// it, and exits with the command's status (2 if it printed nothing for 30 s).
    private static let driver = """
        import os, pty, select, sys
        answer, command = sys.argv[1], sys.argv[2:]
        pid, fd = pty.fork()
        if pid == 0:
            os.execv(command[0], command)
        out, answered = b"", False
        while True:
            ready, _, _ = select.select([fd], [], [], 30)
            if not ready:
                os.kill(pid, 9); os.waitpid(pid, 0); sys.stdout.write(out.decode(errors="replace")); sys.exit(2)
            try:
                data = os.read(fd, 4096)
            except OSError:
                break
            if not data:
                break
            out += data
            if not answered and answer != "-" and b"[y/N] " in out:
                os.write(fd, answer.encode() + b"\\n")
                answered = True
        _, status = os.waitpid(pid, 0)
        sys.stdout.write(out.decode(errors="replace"))
        sys.exit(os.waitstatus_to_exitcode(status))
        """

    /// Runs `streamctl arguments` on a terminal against `socket`, answering `answer` (nil: no answer).
    /// Returns the command's status and everything the terminal showed (the answer's echo included).
    static func run(_ arguments: [String], socket: String, answer: String?) throws -> CommandResult {
        try ToolProcess.run(
            path: "/usr/bin/python3", ["-c", driver, answer ?? "-", DaemonProcess.builtExecutable(named: "streamctl")] + arguments,
            environment: ["STREAMD_SOCKET": socket], timeout: 60)
    }
}
