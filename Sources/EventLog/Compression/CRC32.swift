import CZlib

/// zlib's CRC-32 of `bytes`, the checksum every stored block carries.
func crc32Checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
    return UInt32(crc32_z(0, base.assumingMemoryBound(to: Bytef.self), z_size_t(bytes.count)))
}
