import Foundation

/// The lines of a file (without their `\n`, and without a `\r` before it) in batches of at most `count`
/// lines and at most `bytes` bytes (each line counting its length plus 8), read in 64 KiB pieces so any
/// size of input streams through.
///
/// A batch is handed over as soon as the input has nothing more ready: when a read leaves no complete
/// line buffered and no further input is waiting, the lines so far go out at once (so `tail -F log |
/// streamctl publish` publishes each line promptly), while input that keeps coming still fills batches.
/// A line longer than `longestLine` throws `LineTooLong`. The buffer is scanned once, however long a
/// line, so one huge line costs linear time.
///
/// Not thread-safe: one task iterates it.
struct LineBatches: AsyncSequence {
    typealias Element = [[UInt8]]

    /// A line longer than the batches may carry.
    struct LineTooLong: Error, Sendable, CustomStringConvertible {
        /// The line's number (from 1).
        var line: Int
        /// Its length in bytes (so far, for a line still unfinished when found too long).
        var bytes: Int
        /// The longest line accepted.
        var limit: Int

        var description: String {
            "line \(line) is \(bytes) bytes long, more than the \(limit) bytes a line may have; split it, or leave it out"
        }
    }

    let handle: FileHandle
    let count: Int
    let bytes: Int
    let longestLine: Int
    /// Called with the bytes read so far, for progress.
    var onRead: ((UInt64) -> Void)? = nil

    /// Batches of `handle`'s lines; `longestLine` defaults to what fits in `bytes`.
    init(_ handle: FileHandle, count: Int, bytes: Int, longestLine: Int? = nil, onRead: ((UInt64) -> Void)? = nil) {
        self.handle = handle
        self.count = count
        self.bytes = bytes
        self.longestLine = longestLine ?? Swift.max(bytes - Self.lineOverhead, 1)
        self.onRead = onRead
    }

    /// What a line costs in a batch beyond its bytes (its length and message-id fields on the wire, rounded up).
    static let lineOverhead = 8

    func makeAsyncIterator() -> Iterator { Iterator(batches: self) }

    struct Iterator: AsyncIteratorProtocol {
        let batches: LineBatches
        private var pending: [UInt8] = []
        /// The buffer each read fills, 64 KiB.
        private var piece = [UInt8](repeating: 0, count: 64 * 1024)
        /// Where the next line starts in `pending`.
        private var start = 0
        /// How far `pending` has been searched for a newline: none lies in `start..<scanned`.
        private var scanned = 0
        private var ended = false
        private var read: UInt64 = 0
        /// The number of the last line handed over.
        private var lineNumber = 0

        init(batches: LineBatches) { self.batches = batches }

        mutating func next() async throws -> [[UInt8]]? {
            var batch: [[UInt8]] = []
            var size = 0
            while batch.count < batches.count {
                if let newline = nextNewline() {
                    var end = newline
                    if end > start, pending[end - 1] == 0x0D { end -= 1 }
                    let cost = end - start + LineBatches.lineOverhead
                    if end - start > batches.longestLine {
                        if batch.isEmpty { throw tooLong(end - start) }
                        break  // the lines before it go out first
                    }
                    // Checked before adding, so a batch never exceeds the budget: the line waits for the next batch.
                    if !batch.isEmpty, size + cost > batches.bytes { break }
                    batch.append(Array(pending[start..<end]))
                    size += cost
                    lineNumber += 1
                    start = newline + 1
                    continue
                }
                if pending.count - start > batches.longestLine {
                    if batch.isEmpty { throw tooLong(pending.count - start) }
                    break
                }
                if ended {
                    if start < pending.count {
                        if !batch.isEmpty, size + pending.count - start + LineBatches.lineOverhead > batches.bytes { break }
                        batch.append(Array(pending[start...]))
                        lineNumber += 1
                        start = pending.count
                        scanned = start
                    }
                    break
                }
                if !batch.isEmpty, !inputIsWaiting() { break }
                try readMore()
            }
            return batch.isEmpty ? nil : batch
        }

        /// The index of the next `\n` at or after `start`, searching only bytes not searched before.
        private mutating func nextNewline() -> Int? {
            let from = Swift.max(start, scanned)
            // memchr, not firstIndex(of:): a line of 100 MB is scanned at memory speed.
            let newline = pending.withUnsafeBufferPointer { buffer -> Int? in
                guard from < buffer.count, let base = buffer.baseAddress,
                    let hit = memchr(base + from, 0x0A, buffer.count - from)
                else { return nil }
                return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            }
            guard let found = newline else {
                scanned = pending.count
                return nil
            }
            scanned = found
            return found
        }

        /// The error for the next line, found `length` bytes long.
        private func tooLong(_ length: Int) -> LineTooLong {
            LineTooLong(line: lineNumber + 1, bytes: length, limit: batches.longestLine)
        }

        /// Reads the next piece into `pending`, dropping the lines already handed over first.
        private mutating func readMore() throws {
            if start > 0 {
                pending.removeSubrange(0..<start)
                scanned -= start
                start = 0
            }
            // read(2), not FileHandle.read(upToCount:), which waits until the whole count has arrived (or the
            // end): on a pipe that would hold back every line until 64 KiB had been written.
            var count: Int
            repeat {
                count = piece.withUnsafeMutableBytes { Foundation.read(batches.handle.fileDescriptor, $0.baseAddress, $0.count) }
            } while count < 0 && errno == EINTR
            let failure = errno
            if count > 0 { pending.append(contentsOf: piece[..<count]) }
            guard count >= 0 else { throw CtlFailure("cannot read the input: \(String(cString: strerror(failure))).") }
            if count == 0 {
                ended = true
            } else {
                read += UInt64(count)
                batches.onRead?(read)
            }
        }

        /// Whether a read would return at once (more input is ready, or its end), so a batch can grow
        /// without holding back the lines it has.
        private func inputIsWaiting() -> Bool {
            var descriptor = pollfd(fd: batches.handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            return poll(&descriptor, 1, 0) > 0 && descriptor.revents != 0
        }
    }
}
