import Foundation

/// Writes to standard output and standard error with plain `write(2)`, so a closed pipe is an error
/// streamctl can handle (a reader like `head` that stops early) instead of a crash. Stateless; each
/// write is one `write(2)` loop, so concurrent writers may interleave only between calls.
enum Output {
    /// Writes `bytes` to standard output; throws `BrokenPipe` when the reader has gone.
    static func write(_ bytes: some Collection<UInt8>) throws {
        try write(Array(bytes), to: STDOUT_FILENO)
    }

    /// Writes `text` and a newline to standard output.
    static func line(_ text: String = "") throws {
        try write(Array((text + "\n").utf8))
    }

    /// Writes `text` and a newline to standard error, ignoring failures (there is nowhere else to say it).
    static func error(_ text: String) {
        try? write(Array((text + "\n").utf8), to: STDERR_FILENO)
    }

    /// Prints `value` as one JSON document (keys in snake_case, sorted) and a newline.
    static func json(_ value: some Encodable) throws {
        try write(Array(try encode(value)) + [0x0A])
    }

    /// `value` as compact JSON with snake_case keys, sorted.
    static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    /// Whether standard error is a terminal (progress bars go there only then).
    static var errorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// The reader of standard output went away.
    struct BrokenPipe: Error {}

    /// Writes all of `bytes` to `descriptor`.
    static func write(_ bytes: [UInt8], to descriptor: Int32) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { throw BrokenPipe() }
                throw CtlFailure("cannot write to \(descriptor == STDOUT_FILENO ? "standard output" : "standard error"): \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }
}

/// Collects output and writes it in large pieces, for verbs that print many events.
///
/// Not thread-safe: one task owns it.
final class OutputBuffer {
    private var bytes: [UInt8] = []
    private let descriptor: Int32

    /// A buffer for `descriptor` (standard output by default).
    init(descriptor: Int32 = STDOUT_FILENO) {
        self.descriptor = descriptor
    }

    /// Adds `more`; writes everything once 64 KiB have gathered.
    func append(_ more: some Sequence<UInt8>) throws {
        bytes.append(contentsOf: more)
        if bytes.count >= 64 * 1024 { try flush() }
    }

    /// Writes what has gathered.
    func flush() throws {
        guard !bytes.isEmpty else { return }
        defer { bytes.removeAll(keepingCapacity: true) }
        try Output.write(bytes, to: descriptor)
    }
}
