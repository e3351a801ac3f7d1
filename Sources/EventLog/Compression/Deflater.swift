import CZlib

/// A raw-deflate compressor that keeps one `z_stream` for its whole life and resets it per block,
/// because setting a stream up per call costs more than compressing a ~100-byte event (DESIGN.md).
///
/// Thread-safety: not Sendable; the writer thread owns one, benchmarks and tests make their own.
final class Deflater {
    private var stream = z_stream()
    private var output: [UInt8] = []
    let level: Int32

    /// A compressor at zlib `level` (1 = fastest … 9 = smallest).
    init(level: Int32) throws(EventLogError) {
        self.level = level
        let status = czlib_deflate_init(&stream, level)
        guard status == Z_OK else {
            throw EventLogError(.invalidArgument, "zlib refused compression level \(level) (status \(status)); use 1...9.")
        }
    }

    deinit { deflateEnd(&stream) }

    /// Compresses `input` as one raw-deflate unit and calls `body` with the result, or with nil when
    /// the compressed form would not be smaller than the input (the caller then stores it raw).
    /// Inputs shorter than this are left raw.
    static let minimumInput = 192

    func compress<R>(_ input: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer?) throws -> R) rethrows -> R {
        // A lone small event saves a few bytes at most (ratio ~0.9 on this machine) for ~7 µs of
        // deflateReset and deflate: a commit of one event skips it.
        guard input.count >= Self.minimumInput else { return try body(nil) }
        deflateReset(&stream)
        // Anything at least as large as the input is useless, so cap the output there and stop early.
        let limit = input.count
        if output.count < limit { output = [UInt8](repeating: 0, count: max(limit, 4096)) }
        let status: Int32 = output.withUnsafeMutableBytes { out in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
            stream.avail_in = uInt(input.count)
            stream.next_out = out.baseAddress?.assumingMemoryBound(to: Bytef.self)
            stream.avail_out = uInt(limit)
            return deflate(&stream, Z_FINISH)
        }
        guard status == Z_STREAM_END, limit > 0 else { return try body(nil) }
        let produced = limit - Int(stream.avail_out)
        guard produced < input.count else { return try body(nil) }
        return try output.withUnsafeBytes { bytes in
            try body(UnsafeRawBufferPointer(rebasing: bytes[0..<produced]))
        }
    }
}

@available(*, unavailable)
extension Deflater: Sendable {}
