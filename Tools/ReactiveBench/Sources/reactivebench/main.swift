// Kept to one call on purpose: closures written in top-level code are main-actor isolated, and Swift
// would check that isolation inside every event. The workloads live in nonisolated code elsewhere.
Bench.main(arguments: Array(CommandLine.arguments.dropFirst()))
