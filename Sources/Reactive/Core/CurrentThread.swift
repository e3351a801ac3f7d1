#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The identity of the calling thread, for telling a reentrant call from another thread's (the
/// daemon's subscriptions use it too, hence `package`).
@usableFromInline
package enum CurrentThread {
    /// A non-zero number unique among running threads.
    @inlinable
    package static var id: UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }
}
