import CZlib

/// A raw-deflate decompressor that keeps one `z_stream` and resets it per block.
///
/// Thread-safety: not Sendable; each reader owns one.
final class Inflater {
    private var stream = z_stream()

    init() throws(EventLogError) {
        let status = czlib_inflate_init(&stream)
        guard status == Z_OK else {
            throw EventLogError(.io, "zlib could not set up decompression (status \(status)); the process may be out of memory.")
        }
    }

    deinit { inflateEnd(&stream) }

    /// Decompresses `input` into `output`, which must hold exactly the expected size.
    /// Returns nil on success, or a reason the data is damaged.
    func decompress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> String? {
        inflateReset(&stream)
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(input.count)
        stream.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.avail_out = uInt(output.count)
        let status = inflate(&stream, Z_FINISH)
        if status == Z_STREAM_END {
            return stream.avail_out == 0 ? nil : "decompressed to \(output.count - Int(stream.avail_out)) bytes, expected \(output.count)"
        }
        if status == Z_BUF_ERROR && stream.avail_out == 0 {
            return "decompresses to more than the recorded \(output.count) bytes"
        }
        return "zlib inflate failed with status \(status)"
    }
}

@available(*, unavailable)
extension Inflater: Sendable {}
