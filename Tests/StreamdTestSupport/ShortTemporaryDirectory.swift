import Foundation

/// A fresh directory under /tmp with a short name, so socket paths stay far below the 108-byte limit.
public final class ShortTemporaryDirectory: Sendable {
    public let path: String

    public init() throws {
        var template = Array("/tmp/sd-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw TestFailure("mkdtemp failed: \(String(cString: strerror(errno)))")
        }
        path = String(cString: made)
    }

    public var socket: String { path + "/s.sock" }
    public var database: String { path + "/db.sqlite" }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
