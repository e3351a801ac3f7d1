#if canImport(Glibc)
import Glibc
#endif

/// Runs the selected workloads on both libraries and prints one line per figure, then a summary.
enum Bench {
    /// The two libraries compared, by the name printed as `peer=`.
    enum Peer: String {
        case reactive
        case openCombine = "opencombine"
    }

    nonisolated static func main(arguments: [String]) {
        let options = Options.parse(arguments)
        let workloads = Workload.all.filter { options.only.isEmpty || options.only.contains($0.metric) }
        let peers: [Peer] = options.peer.map { [$0] } ?? [.reactive, .openCombine]
        let countsAllocations = !options.skipAllocations && allocationCounterWorks()
        if !options.skipAllocations && !countsAllocations {
            printError("reactivebench: the allocation counter does not see the Swift runtime's allocations; skipping allocation counts")
        }

        var summary: [String] = []
        var checksumsAgree = true
        for workload in workloads {
            // Warm caches, lazy metadata and the allocator before anything is timed.
            for peer in peers {
                _ = job(of: workload, for: peer)(max(1, options.events / 10), Meter(.time))
            }

            var rates: [Peer: [Double]] = [:]
            var checksums: [Peer: Set<Int>] = [:]
            for run in 0..<options.runs {
                // Alternate who goes first, so drift on a shared machine does not favour one library.
                for peer in run.isMultiple(of: 2) ? peers : peers.reversed() {
                    let meter = Meter(.time)
                    let checksum = job(of: workload, for: peer)(options.events, meter)
                    rates[peer, default: []].append(Double(workload.deliveries(options.events)) / meter.seconds)
                    checksums[peer, default: []].insert(checksum)
                }
            }
            let distinctChecksums = Set(checksums.values.flatMap { $0 })
            if distinctChecksums.count != 1 {
                checksumsAgree = false
                printError("reactivebench: \(workload.metric): runs delivered different values (checksums \(checksums))")
            }

            var medians: [Peer: Double] = [:]
            var allocations: [Peer: Double] = [:]
            for peer in peers {
                let rate = median(rates[peer] ?? [])
                medians[peer] = rate
                printFigure(peer: peer, metric: metric(of: workload, for: peer), value: formatWhole(rate), unit: workload.unit)
            }
            if countsAllocations {
                let events = workload.deliveries(options.events) / workload.deliveriesPerEvent
                for peer in peers {
                    let perEvent = allocationsPerEvent(job: job(of: workload, for: peer), events: options.events, per: events)
                    allocations[peer] = perEvent
                    printFigure(peer: peer, metric: metric(of: workload, for: peer) + "_allocs", value: formatFraction(perEvent), unit: "allocs/event")
                }
            }
            if let ours = medians[.reactive], let theirs = medians[.openCombine] {
                var line = "\(workload.metric): reactive \(formatMillions(ours)) vs opencombine \(formatMillions(theirs)) "
                    + "M \(workload.unit) → \(formatRatio(ours / theirs))×"
                if let ourAllocations = allocations[.reactive], let theirAllocations = allocations[.openCombine] {
                    line += "; allocations/event \(formatFraction(ourAllocations)) vs \(formatFraction(theirAllocations))"
                }
                summary.append(line + "  [\(workload.note)]")
            }
        }

        if !summary.isEmpty {
            print("")
            print("summary (median of \(options.runs) runs of \(options.events) events; ratio = reactive / opencombine):")
            for line in summary { print("  " + line) }
        }
        if !checksumsAgree { exit(1) }
    }

    private static func metric(of workload: Workload, for peer: Peer) -> String {
        switch peer {
        case .reactive: workload.metric
        case .openCombine: workload.openCombineMetric
        }
    }

    private static func job(of workload: Workload, for peer: Peer) -> Workload.Job {
        switch peer {
        case .reactive: workload.reactive
        case .openCombine: workload.openCombine
        }
    }

    /// Allocation calls per event in one untimed run of the steady-state loop (counting is kept out of
    /// the timed runs so it cannot slow either library down).
    private static func allocationsPerEvent(job: Workload.Job, events: Int, per count: Int) -> Double {
        let meter = Meter(.allocations)
        _ = job(events, meter)
        return Double(meter.allocations) / Double(count)
    }

    private static func printFigure(peer: Peer, metric: String, value: String, unit: String) {
        print("peer=\(peer.rawValue) metric=\(metric) value=\(value) unit=\(unit)")
    }
}

/// The middle value (the mean of the two middle ones for an even count).
func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
}

func formatWhole(_ value: Double) -> String {
    value.isFinite ? String(Int(value.rounded())) : "0"
}

/// Up to three decimals, without trailing zeros: 0, 0.002, 3.5.
func formatFraction(_ value: Double) -> String {
    let thousandths = Int((value * 1000).rounded())
    let whole = thousandths / 1000
    var decimals = String(thousandths % 1000)
    decimals = String(repeating: "0", count: 3 - decimals.count) + decimals
    while decimals.last == "0" { decimals.removeLast() }
    return decimals.isEmpty ? String(whole) : "\(whole).\(decimals)"
}

func formatMillions(_ value: Double) -> String {
    formatFraction((value / 1e5).rounded() / 10)
}

func formatRatio(_ value: Double) -> String {
    value.isFinite ? formatFraction((value * 10).rounded() / 10) : "?"
}
