#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// Writes whole lines to a descriptor, one at a time, retrying short and interrupted writes.
///
/// Thread-safety: Sendable; the Mutex is held for the `write` calls of one line only.
final class LineWriter: Sendable {
    private let descriptor: Mutex<Int32>

    /// A writer to `descriptor` (left open).
    init(descriptor: Int32) {
        self.descriptor = Mutex(descriptor)
    }

    /// Writes `line` whole; drops the rest of it if the descriptor fails (a log line is never worth
    /// stopping the daemon).
    func write(_ line: [UInt8]) {
        descriptor.withLock { descriptor in
            _ = writeWhole(line) { bytes, count in systemWrite(descriptor, bytes, count) }
        }
    }
}

/// `write(2)`, named apart from `LineWriter.write`.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
