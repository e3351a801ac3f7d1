#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes `bytes` with `call` (`write(2)` or `send(2)` on one descriptor) until all are written or a
/// call writes nothing (a full socket, a failure), retrying calls an interrupt cut short; returns how
/// many were written.
func writeWhole(_ bytes: [UInt8], with call: (UnsafeRawPointer, Int) -> Int) -> Int {
    bytes.withUnsafeBytes { buffer in
        var written = 0
        while written < buffer.count {
            let result = call(buffer.baseAddress! + written, buffer.count - written)
            if result > 0 {
                written += result
            } else if result < 0, errno == EINTR {
                continue
            } else {
                break
            }
        }
        return written
    }
}
