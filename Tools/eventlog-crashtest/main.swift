// eventlog-crashtest: appends to stream "crash" of the log at PATH as fast as it can, from several
// threads, and prints each acknowledged append as "FIRST LAST\n" on stdout, only after its commit.
// The crash-safety tests kill it with SIGKILL at random moments and check that every printed sequence
// survived. Usage: eventlog-crashtest PATH [THREADS] [normal|full] [CHECKPOINT_PAGES] [shared|exclusive|journal]
// (journal: exclusive to the process, appends acknowledged once in the journal).
import EventLog
import Foundation

#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: eventlog-crashtest PATH [THREADS] [normal|full] [CHECKPOINT_PAGES] [shared|exclusive|journal]\n".utf8))
    exit(64)
}
let threads = arguments.count > 2 ? max(1, Int(arguments[2]) ?? 4) : 4
var options = EventLogOptions()
options.durability = arguments.count > 3 && arguments[3] == "full" ? .full : .normal
if arguments.count > 4, let pages = Int32(arguments[4]) { options.checkpointPages = pages }
options.exclusiveToProcess = arguments.count > 5 && ["exclusive", "journal"].contains(arguments[5])
options.journal = arguments.count > 5 && arguments[5] == "journal"

/// Writes one whole line with a single write(2), so lines from several threads never interleave.
@Sendable func emit(_ line: String) {
    var bytes = Array(line.utf8)
    bytes.append(UInt8(ascii: "\n"))
    bytes.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let written = write(1, buffer.baseAddress! + offset, buffer.count - offset)
            if written <= 0 { exit(1) }
            offset += written
        }
    }
}

do {
    let log = try EventLog(path: arguments[1], options: options)
    try log.ensureStream("crash")

    for thread in 0..<threads {
        Thread.detachNewThread {

            var index = thread
            while true {
                index += threads
                let payload = Array("{\"thread\":\(thread),\"index\":\(index),\"pad\":\"\(String(repeating: "x", count: index % 50))\"}".utf8)
                do {
                    let receipt = index % 5 == 0
                        ? try log.append(contentsOf: Array(repeating: payload, count: 1 + index % 17), to: "crash")
                        : try log.append(payload, to: "crash")
                    emit("\(receipt.firstSequence) \(receipt.lastSequence)")
                } catch {
                    FileHandle.standardError.write(Data("append failed: \(error)\n".utf8))
                    exit(1)
                }
            }
        }
    }
    while true { sleep(60) }
} catch {
    FileHandle.standardError.write(Data("open failed: \(error)\n".utf8))
    exit(1)
}
