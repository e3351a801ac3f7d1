import Foundation
import StreamProtocol
import StreamdTestSupport

/// A raw connection for the live fuzz test, reading frames itself so that a reset after the daemon's
/// close counts as a close (Linux resets a Unix socket whose peer closed with bytes left unread).
///
/// Thread-safety: not Sendable in spirit; one worker thread uses it.
final class FuzzSocket {
    /// How the reading ended.
    enum End: Error, Equatable { case closed, reset }

    private let client: SocketClient
    private var decoder = FrameDecoder(maximumLength: Int(UInt32.max))

    init(path: String) throws {
        client = try SocketClient(path: path, timeout: 10)
    }

    /// Writes `bytes`; false if the daemon had already closed (it may close before reading them all).
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool { (try? client.write(bytes)) != nil }

    /// Says the client will send nothing more.
    func finishWriting() { shutdown(client.descriptor, Int32(SHUT_WR)) }

    /// The next frame, or how the connection ended; throws if the daemon neither answers nor closes in time.
    func next() throws -> Result<Received, End> {
        while true {
            if let frame = try decoder.next() {
                return .success(Received(requestID: frame.requestID, message: try ServerMessage(frame, version: BadConnection.version)))
            }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { read(client.descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return .failure(.closed) }
            if count < 0 {
                if errno == ECONNRESET { return .failure(.reset) }
                throw TestFailure("read failed (the daemon neither answered nor closed?): \(String(cString: strerror(errno)))")
            }
            decoder.append(buffer[..<count])
        }
    }

    /// Every frame until the daemon closes.
    func framesUntilClosed() throws -> [Received] {
        var frames: [Received] = []
        while case let .success(frame) = try next() { frames.append(frame) }
        return frames
    }
}
