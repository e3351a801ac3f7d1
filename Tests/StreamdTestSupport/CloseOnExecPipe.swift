import Foundation

/// Pipes for child processes that no other child can inherit: tests start processes in parallel,
/// and a child holding another's pipe open delays that pipe's end of file until it exits.
enum CloseOnExecPipe {
    /// A one-way channel created close-on-exec in one call (a socket pair: Glibc's `pipe2` is not
    /// visible to Swift here).
    static func make() throws -> (read: FileHandle, write: FileHandle) {
        var descriptors: [Int32] = [0, 0]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &descriptors) == 0 else {
            throw TestFailure("socketpair failed: \(String(cString: strerror(errno)))")
        }
        return (FileHandle(fileDescriptor: descriptors[0], closeOnDealloc: true), FileHandle(fileDescriptor: descriptors[1], closeOnDealloc: true))
    }
}
