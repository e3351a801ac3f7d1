import Foundation

/// The lines of a file (without their `\n`, and without a `\r` before it) in batches of at most `count`
/// lines and about `bytes` bytes, read in 64 KiB pieces so any size of input streams through.
///
/// Not thread-safe: one task iterates it.
struct LineBatches: AsyncSequence {
    typealias Element = [[UInt8]]

    let handle: FileHandle
    let count: Int
    let bytes: Int
    /// Called with the bytes read so far, for progress.
    var onRead: ((UInt64) -> Void)? = nil

    init(_ handle: FileHandle, count: Int, bytes: Int, onRead: ((UInt64) -> Void)? = nil) {
        self.handle = handle
        self.count = count
        self.bytes = bytes
        self.onRead = onRead
    }

    func makeAsyncIterator() -> Iterator { Iterator(batches: self) }

    struct Iterator: AsyncIteratorProtocol {
        let batches: LineBatches
        private var pending: [UInt8] = []
        private var start = 0
        private var ended = false
        private var read: UInt64 = 0

        init(batches: LineBatches) { self.batches = batches }

        mutating func next() async throws -> [[UInt8]]? {
            var batch: [[UInt8]] = []
            var size = 0
            while batch.count < batches.count, size < batches.bytes {
                if let newline = pending[start...].firstIndex(of: 0x0A) {
                    var end = newline
                    if end > start, pending[end - 1] == 0x0D { end -= 1 }
                    batch.append(Array(pending[start..<end]))
                    size += end - start + 8
                    start = newline + 1
                    continue
                }
                if ended {
                    if start < pending.count {
                        batch.append(Array(pending[start...]))
                        start = pending.count
                    }
                    break
                }
                pending.removeSubrange(0..<start)
                start = 0
                let data = try batches.handle.read(upToCount: 64 * 1024) ?? Data()
                if data.isEmpty { ended = true } else {
                    pending.append(contentsOf: data)
                    read += UInt64(data.count)
                    batches.onRead?(read)
                }
            }
            return batch.isEmpty ? nil : batch
        }
    }
}
