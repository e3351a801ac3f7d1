import Dispatch
import EventLog
import Foundation
import Synchronization

/// The `--log` measurements: appends, replay, storage size, and opening a large log.
struct LogBenchmark {
    let arguments: Arguments
    init(_ arguments: Arguments) { self.arguments = arguments }

    func run() throws {
        var corpus = Corpus()
        let events = corpus.batch(arguments.events)
        let rawBytes = events.reduce(0) { $0 + $1.count }
        note("corpus: \(events.count) events, mean \(String(format: "%.1f", Double(rawBytes) / Double(events.count))) B")

        var appendRates: [Double] = [], replayRates: [Double] = [], ratios: [Double] = [], blobRatios: [Double] = []
        for run in 0..<arguments.runs {
            let path = arguments.directory + "/batched-\(run).sqlite"
            let log = try EventLog(path: path)
            try log.createStream("bench")
            appendRates.append(try batchedAppend(log, events, batch: 1_000))
            try log.checkpoint()
            log.close()
            let fileBytes = try fileSize(path)
            ratios.append(Double(fileBytes) / Double(rawBytes))
            let reopened = try EventLog(path: path)
            blobRatios.append(Double(try reopened.streamInfo("bench")?.storedBytes ?? 0) / Double(rawBytes))
            for _ in 0..<2 { replayRates.append(try replay(reopened, expected: events.count)) }
            reopened.close()
            remove(path)
        }
        report("append_batched_normal", median(appendRates), "events/s", "batches of 1000, durability normal")
        report("replay_from_start", median(replayRates), "events/s", "\(events.count) events")
        report("stored_bytes_ratio", median(ratios), "file/raw", "database file after checkpoint / raw payload bytes")
        report("stored_blob_ratio", median(blobRatios), "blob/raw", "compressed block bytes / raw payload bytes")
        report("stored_bytes_per_event", median(ratios) * Double(rawBytes) / Double(events.count), "B", "raw mean \(String(format: "%.1f", Double(rawBytes) / Double(events.count))) B")

        // `exclusive`: with `exclusiveToProcess`, as streamd opens its log.
        for (durability, exclusive, count) in [(Durability.normal, false, 20_000), (.normal, true, 20_000), (.full, false, 3_000)] {
            var rates: [Double] = []
            let name = "\(durability)\(exclusive ? "_exclusive" : "")"
            for run in 0..<arguments.runs {
                let path = arguments.directory + "/single-\(name)-\(run).sqlite"
                var options = EventLogOptions()
                options.durability = durability
                options.exclusiveToProcess = exclusive
                let log = try EventLog(path: path, options: options)
                try log.createStream("bench")
                let start = DispatchTime.now()
                for index in 0..<count { try log.append(events[index % events.count], to: "bench") }
                rates.append(Double(count) / seconds(since: start))
                log.close()
                remove(path)
            }
            report("append_one_per_commit_\(name)", median(rates), "events/s", "sequential, one event per commit")
        }
        // What the daemon's commit of a pipelined window costs: 64 events per commit, one commit at a time.
        var windowRates: [Double] = []
        for run in 0..<arguments.runs {
            let path = arguments.directory + "/window-\(run).sqlite"
            let log = try EventLog(path: path)
            try log.createStream("bench")
            let windows = 2_000
            let start = DispatchTime.now()
            for window in 0..<windows {
                let first = (window * 64) % max(1, events.count - 64)
                try log.append(contentsOf: Array(events[first..<min(events.count, first + 64)]), to: "bench")
            }
            windowRates.append(Double(windows * 64) / seconds(since: start))
            log.close()
            remove(path)
        }
        report("append_64_per_commit_normal", median(windowRates), "events/s", "sequential, 64 events per commit")
        if arguments.bigEvents > 0 { try largeLog(&corpus) }
    }

    /// Appends `events` in batches, keeping up to 16 batches in flight so the caller and the writer
    /// thread overlap (what a server with many publishers sees).
    private func batchedAppend(_ log: EventLog, _ events: [[UInt8]], batch: Int) throws -> Double {
        let window = DispatchSemaphore(value: 16)
        let done = DispatchGroup()
        let failure = Mutex<EventLogError?>(nil)
        let start = DispatchTime.now()
        var offset = 0
        while offset < events.count {
            let slice = Array(events[offset..<min(offset + batch, events.count)])
            offset += slice.count
            window.wait()
            done.enter()
            log.append(contentsOf: slice, to: "bench") { result in
                if case .failure(let error) = result { failure.withLock { $0 = error } }
                window.signal()
                done.leave()
            }
        }
        done.wait()
        if let error = failure.withLock({ $0 }) { throw error }
        return Double(events.count) / seconds(since: start)
    }

    private func replay(_ log: EventLog, expected: Int) throws -> Double {
        var count = 0, bytes = 0
        let start = DispatchTime.now()
        try log.read("bench", from: .all) { event in
            count += 1
            bytes &+= event.payload.count
            return true
        }
        let elapsed = seconds(since: start)
        guard count == expected else { throw EventLogError(.io, "replay saw \(count) events, expected \(expected)") }
        return Double(count) / elapsed
    }

    /// Builds a log of `bigEvents` events, then measures opening it and serving the first replay.
    private func largeLog(_ corpus: inout Corpus) throws {
        let total = arguments.bigEvents
        let path = arguments.directory + "/large.sqlite"
        do {
            let log = try EventLog(path: path)
            try log.createStream("bench")
            var written = 0
            let start = DispatchTime.now()
            while written < total {
                let chunk = corpus.batch(min(100_000, total - written))
                _ = try batchedAppend(log, chunk, batch: 1_000)
                written += chunk.count
            }
            note("built \(total) events in \(String(format: "%.1f", seconds(since: start))) s, \(try fileSize(path) / 1_000_000) MB")
            try log.checkpoint()
            log.close()
        }
        var firstEvent: [Double] = [], firstThousand: [Double] = [], lastHundred: [Double] = [], coldFirst: [Double] = []
        for run in 0..<max(3, arguments.runs) * 2 {
            // Odd runs evict the file from the page cache first, so the open reads from disk.
            let cold = run % 2 == 1
            if cold { evictFromPageCache(path) }
            let start = DispatchTime.now()
            let log = try EventLog(path: path)
            var seen = 0
            try log.read("bench", from: .all) { _ in
                seen += 1
                if seen == 1 { (cold ? { coldFirst.append($0) } : { firstEvent.append($0) })(seconds(since: start) * 1_000) }
                return seen < 1_000
            }
            if !cold {
                firstThousand.append(seconds(since: start) * 1_000)
                let tailStart = DispatchTime.now()
                try log.read("bench", from: .last(100)) { _ in true }
                lastHundred.append(seconds(since: tailStart) * 1_000)
            }
            log.close()
        }
        report("open_large_first_event", median(firstEvent), "ms", "\(total) events: open + first replayed event, warm cache")
        report("open_large_first_event_cold", median(coldFirst), "ms", "\(total) events: same, database file evicted from the page cache")
        report("open_large_first_1000", median(firstThousand), "ms", "\(total) events: open + first 1000 events")
        report("large_last_100", median(lastHundred), "ms", "\(total) events: replay of the last 100")

        // A full replay must stream: the peak resident size may not grow with the number of events.
        let log = try EventLog(path: path)
        let before = peakResidentMegabytes()
        var count = 0
        let start = DispatchTime.now()
        try log.read("bench", from: .all) { _ in
            count += 1
            return true
        }
        let rate = Double(count) / seconds(since: start)
        log.close()
        report("replay_large_all", rate, "events/s", "\(count) events from the start")
        report("replay_large_peak_rss_growth", peakResidentMegabytes() - before, "MB", "peak RSS before \(String(format: "%.0f", before)) MB")
        remove(path)
    }

    private func evictFromPageCache(_ path: String) {
        for suffix in ["", "-wal"] {
            let descriptor = open(path + suffix, O_RDONLY)
            guard descriptor >= 0 else { continue }
            fsync(descriptor)
            posix_fadvise(descriptor, 0, 0, Int32(POSIX_FADV_DONTNEED))
            close(descriptor)
        }
    }

    private func peakResidentMegabytes() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1_024
    }

    private func fileSize(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    private func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}

func seconds(since start: DispatchTime) -> Double {
    Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func report(_ metric: String, _ value: Double, _ unit: String, _ detail: String) {
    let shown = value >= 100 ? String(format: "%.0f", value) : String(format: "%.3f", value)
    print("peer=streamd metric=\(metric) value=\(shown) unit=\(unit) (\(detail))")
}

func note(_ text: String) {
    FileHandle.standardError.write(Data("# \(text)\n".utf8))
}
