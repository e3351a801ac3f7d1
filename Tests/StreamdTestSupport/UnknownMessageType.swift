import StreamProtocol

/// Type bytes no client message has, asked of the protocol's own decoder, so fuzz tests stay right
/// when the protocol gains a message.
public enum UnknownMessageType {
    /// Every type byte `ClientMessage` does not decode.
    public static let all: [UInt8] = (0...UInt8.max).filter { type in
        do {
            _ = try ClientMessage(Frame(type: type, requestID: 0, body: []))
            return false
        } catch ProtocolError.unknownMessageType {
            return true
        } catch {
            return false
        }
    }

    /// One of them, chosen with `generator`.
    public static func random(using generator: inout some RandomNumberGenerator) -> UInt8 {
        all.randomElement(using: &generator) ?? 0xFF
    }
}
