import Reactive
import StreamProtocol

extension StreamConnection {
    /// Encodes `value` with `codec` and appends it; see `append(_:to:expectedLastSequence:messageID:)`.
    ///
    /// Labelled `value:` so that bytes (`[UInt8]`, itself `Encodable`) always mean the payload as it is.
    public func append<T: Encodable>(
        value: T, to stream: String, codec: any EventCodec = JSONEventCodec(),
        expectedLastSequence: UInt64? = nil, messageID: String? = nil
    ) async throws -> AppendReceipt {
        let payload: [UInt8]
        do {
            payload = try codec.encode(value)
        } catch {
            throw StreamClientError.codec("cannot encode \(T.self) with \(codec.name): \(error)")
        }
        return try await append(payload, to: stream, expectedLastSequence: expectedLastSequence, messageID: messageID)
    }

    /// The values of `stream` decoded as `T` with `codec`; see `subscribe(_:from:resume:reconnect:credit:)`.
    ///
    /// A payload that does not decode fails the subscription with `.codec`.
    public func subscribe<T: Decodable & Sendable>(
        _ stream: String, as type: T.Type, from start: StartPosition = .streamDefault,
        codec: any EventCodec = JSONEventCodec(), resume: Bool = false, reconnect: ReconnectPolicy = .standard
    ) -> SignalProducer<T, StreamClientError> {
        let events = subscribe(stream, from: start, resume: resume, reconnect: reconnect)
        return SignalProducer { observer, lifetime in
            lifetime += events.start { event in
                switch event {
                case let .value(received):
                    do {
                        observer.send(value: try codec.decode(T.self, from: received.payload))
                    } catch {
                        observer.send(error: .codec("event \(received.sequence) of \(stream) is not a \(T.self): \(error)"))
                    }
                case let .failed(error): observer.send(error: error)
                case .completed: observer.sendCompleted()
                case .interrupted: observer.sendInterrupted()
                }
            }
        }
    }
}
