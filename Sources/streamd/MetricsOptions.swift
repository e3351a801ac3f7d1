import ArgumentParser
import EventLog
import StreamServer

/// The `streamd` options of the Prometheus endpoint. Each has an environment variable; a flag wins
/// over it.
///
/// Values are Sendable.
struct MetricsOptions: ParsableArguments, Sendable {
    @Option(name: .customLong("metrics"), help: ArgumentHelp(
        "Serve Prometheus metrics at http://HOST:PORT/metrics (env STREAMD_METRICS; default: off).",
        discussion: "Use a loopback address such as 127.0.0.1:9464: the metrics name streams, and streamd warns when the address is not loopback. Port 0 picks a free port; the log says which.",
        valueName: "host:port"))
    var metrics: String?

    @Option(name: .customLong("metrics-streams"), help: ArgumentHelp(
        "How many streams get series of their own in the per-stream metrics; later ones are summed under stream=\"(other)\" (env STREAMD_METRICS_STREAMS, default 100).",
        valueName: "count"))
    var metricsStreams: String?

    /// The endpoint's address, or nil when metrics are off (no flag, no variable, or an empty one).
    ///
    /// - Throws: `ValidationError` saying what is wrong with the address.
    func address(environment: [String: String]) throws -> MetricsAddress? {
        guard let text = metrics ?? environment["STREAMD_METRICS"].flatMap({ $0.isEmpty ? nil : $0 }) else { return nil }
        do {
            return try MetricsAddress(parsing: text)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// How many streams are labelled by name.
    ///
    /// - Throws: `ValidationError` when the value is not a whole number from 0 to 10000.
    func streamLimit(environment: [String: String]) throws -> Int {
        let (text, name) = metricsStreams.map { ($0, "--metrics-streams") }
            ?? environment["STREAMD_METRICS_STREAMS"].map { ($0, "STREAMD_METRICS_STREAMS") } ?? ("100", "")
        guard let value = Int(text), (0...10_000).contains(value) else {
            throw ValidationError("\(name) must be a whole number of streams from 0 to 10000 (got \"\(text)\").")
        }
        return value
    }
}
