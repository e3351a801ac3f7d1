import NIOCore
import NIOPosix

extension InheritedListener {
    /// Serves `bootstrap`'s connections on this socket instead of binding a new one; the channel owns
    /// the descriptor from then on and closes it when it closes (the service manager keeps its copy).
    ///
    /// - Throws: `StreamServerError` of kind `inheritedSocket` when the event loop refuses the socket.
    func adopt(with bootstrap: ServerBootstrap) async throws -> any Channel {
        do {
            return try await bootstrap.withBoundSocket(descriptor).get()
        } catch {
            throw StreamServerError(.inheritedSocket, "cannot serve on the socket passed by the service manager (descriptor \(descriptor)\(path.map { ", \($0)" } ?? "")): \(error).")
        }
    }
}
