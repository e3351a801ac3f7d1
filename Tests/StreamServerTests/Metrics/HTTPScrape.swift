import Foundation
import StreamdTestSupport

/// A plain-socket HTTP/1.1 client for the metrics endpoint (URLSession is unreliable on Linux for
/// this): sends `request` as given and reads until the server closes.
///
/// Values are immutable and Sendable.
struct HTTPScrape: Sendable {
    /// The status code (0 when the server closed without an answer).
    var status: Int
    /// The status line and headers.
    var head: String
    /// The body.
    var body: String

    /// Sends `GET /metrics` to 127.0.0.1:`port`.
    static func metrics(port: Int) throws -> HTTPScrape {
        try send("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", port: port)
    }

    /// Sends `request` verbatim to 127.0.0.1:`port` and reads the whole answer; a connection the
    /// server closes without a word gives status 0.
    static func send(_ request: String, port: Int) throws -> HTTPScrape {
        let socket = try connect(port: port)
        defer { close(socket) }
        try write(Array(request.utf8), to: socket)
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = read(socket, &buffer, buffer.count)
            // A reset (the server closing with our bytes unread) ends the answer like an EOF.
            if count <= 0 { break }
            answer += buffer[..<count]
        }
        let text = String(decoding: answer, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { return HTTPScrape(status: 0, head: text, body: "") }
        let head = String(text[..<split.lowerBound])
        let status = head.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } ?? 0
        return HTTPScrape(status: status, head: head, body: String(text[split.upperBound...]))
    }

    /// A TCP socket connected to 127.0.0.1:`port`, with 10-second send and receive timeouts.
    static func connect(port: Int) throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw TestFailure("socket: \(String(cString: strerror(errno)))") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(socket)
            throw TestFailure("connect to 127.0.0.1:\(port): \(String(cString: strerror(errno)))")
        }
        return socket
    }

    private static func write(_ bytes: [UInt8], to socket: Int32) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            // The server may refuse and close before reading everything: what was sent is enough.
            if count <= 0 { return }
            sent += count
        }
    }

    /// The value of the sample named exactly `series` (name and labels as exposed), or nil.
    func value(_ series: String) -> Double? {
        for line in body.split(separator: "\n") where line.hasPrefix(series + " ") {
            return Double(line.dropFirst(series.count + 1))
        }
        return nil
    }

    /// Runs `promtool check metrics` on the body; returns its exit status and output.
    func promtoolCheck() throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["promtool", "check", "metrics"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        input.fileHandleForWriting.write(Data(body.utf8))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// Whether `promtool` is on the PATH (`.ci/run` installs it from Debian's prometheus package).
    static var promtoolIsInstalled: Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/promtool")
        }
    }
}
