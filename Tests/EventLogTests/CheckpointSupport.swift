import Foundation
@testable import EventLog

/// The size of the file at `path` in bytes, 0 when there is none.
func fileSize(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
}

/// Appends `count` incompressible 3 KB events to `stream` (a WAL page each), then waits up to ten
/// seconds for a checkpoint to copy at least `pages` pages into the database file; returns whether
/// one did.
func appendUntilCheckpointed(_ log: EventLog, _ stream: String, count: Int, pages: Int) throws -> Bool {
    let before = fileSize(log.path)
    for index in 0..<count { try log.append(incompressibleBytes(3_000, seed: UInt64(index + 1)), to: stream) }
    let deadline = Date().addingTimeInterval(10)
    while fileSize(log.path) < before + pages * 4_096, Date() < deadline { usleep(2_000) }
    return fileSize(log.path) >= before + pages * 4_096
}
