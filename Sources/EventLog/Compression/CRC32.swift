import CZlib

/// zlib's CRC-32 of `bytes`, the checksum every stored block carries; with `continuing`, the CRC-32 of
/// the bytes that gave that value followed by `bytes`.
func crc32Checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return crc }
    return UInt32(crc32_z(uLong(crc), base.assumingMemoryBound(to: Bytef.self), z_size_t(bytes.count)))
}
