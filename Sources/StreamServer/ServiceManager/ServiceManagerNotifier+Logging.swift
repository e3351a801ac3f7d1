import Logging

extension ServiceManagerNotifier {
    /// Sends `message`, logging a warning instead of throwing when the service manager cannot be
    /// reached: the daemon serves on either way.
    func send(_ message: String, logger: Logger) {
        do {
            try send(message)
        } catch {
            logger.warning("could not notify the service manager", metadata: ["error": "\(error)"])
        }
    }
}
