// A program that only talks to streamd, built as a package of its own by ClientOnlyPackageTests: one
// import gives it the client, the stream vocabulary and the reactive types, and it links neither
// SQLite nor zlib.
import StreamClient

let policy = StreamPolicy(capacity: .last(100), maxAge: .seconds(3600), replay: .last(10))
let start: StartPosition = .from(sequence: 1)
let codec: any EventCodec = BinaryEventCodec()
let failure = StreamFailure("stored")
let receipt = AppendReceipt(stream: "prices", sequence: 1, timestamp: 0)
let info = StreamInfo(name: "prices", policy: policy)

let subject = ReplaySubject<Double, Never>(capacity: .last)
let doubled: SignalProducer<Double, Never> = subject.producer.map { $0 * 2 }
let started: any Disposable = doubled.startWithValues { print($0) }
subject.send(value: 101.5)
started.dispose()

/// The remote door's calls, type-checked here; running them needs a daemon.
func share(socket: String) async throws {
    let connection = try await StreamConnection.connect(socketPath: socket)
    let prices = RemoteReplaySubject<Double>(connection: connection, stream: "prices")
    let stored: AppendReceipt = try await prices.append(101.5)
    let signal: Signal<Double, StreamFailure> = prices.signal
    _ = (stored, signal)
}

print(policy.capacity, start, codec.name, failure, receipt.sequence, info.count)
