import Foundation
import Synchronization

/// One file descriptor held in reserve (on /dev/null), so that a server out of descriptors can still
/// accept a waiting client to tell it so and close it, instead of leaving it hanging.
///
/// When an accept fails for want of descriptors, the server `spend`s the reserve, accepts one client
/// with it, `mark`s that client to be refused, and `hold`s a new reserve once the refused client is
/// closed. Thread-safety: Sendable; every method may be called from any thread (its state sits in a
/// Mutex, and no lock is held while calling out).
final class DescriptorReserve: Sendable {
    private struct State {
        var descriptor: Int32 = -1
        var marked: Set<ObjectIdentifier> = []
    }
    private let state = Mutex(State())

    /// A reserve holding its descriptor (if one can be opened now).
    init() {
        hold()
    }

    deinit {
        state.withLock { if $0.descriptor >= 0 { close($0.descriptor) } }
    }

    /// Whether the reserve holds its descriptor.
    var isHeld: Bool { state.withLock { $0.descriptor >= 0 } }

    /// Opens the reserve descriptor unless it is held; false if it could not be opened.
    @discardableResult
    func hold() -> Bool {
        state.withLock { state in
            if state.descriptor < 0 { state.descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC) }
            return state.descriptor >= 0
        }
    }

    /// Closes the reserve descriptor so an accept can use it; false if it was not held.
    func spend() -> Bool {
        state.withLock { state in
            guard state.descriptor >= 0 else { return false }
            close(state.descriptor)
            state.descriptor = -1
            return true
        }
    }

    /// Marks `client` (an accepted channel) to be refused as accepted on the reserve.
    func mark(_ client: AnyObject) {
        _ = state.withLock { $0.marked.insert(ObjectIdentifier(client)) }
    }

    /// Whether `client` was marked, forgetting the mark.
    func takeMark(_ client: AnyObject) -> Bool {
        state.withLock { $0.marked.remove(ObjectIdentifier(client)) != nil }
    }
}
