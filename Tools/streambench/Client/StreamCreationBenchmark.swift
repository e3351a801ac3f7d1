import Foundation
import StreamProtocol

/// The `create` workload (issue 14, defect 8): creates streams one request at a time in batches of
/// 2 000, up to 100 000 (the documented limit), and reports the seconds each batch took. A creation
/// that costs the same at any count gives flat figures.
///
/// Thread-safety: used from the benchmark's thread only.
struct StreamCreationBenchmark {
    static let batch = 2_000
    static let total = 100_000

    /// Seconds per batch, in order.
    static func run(_ client: BenchSocket) throws -> [Double] {
        var seconds: [Double] = []
        for first in stride(from: 0, to: total, by: batch) {
            let start = monotonicNanoseconds()
            for index in first..<(first + batch) {
                guard case .streamInfo = try client.request(.createStream(name: "created.\(index)", policy: StreamPolicy())) else {
                    throw BenchFailure("creating stream created.\(index) failed")
                }
            }
            let elapsed = Double(monotonicNanoseconds() - start) / 1e9
            seconds.append(elapsed)
            note("create: streams \(first + 1)...\(first + batch) took \(String(format: "%.2f", elapsed)) s")
        }
        return seconds
    }
}
