import Testing
@testable import EventLog

/// Creating a stream costs the same however many streams exist (issue 14, defect 8): counted in
/// SQLite virtual-machine steps, which do not depend on the machine's speed or load.
@Suite struct StreamCreationCostTests {
    /// The steps SQLite ran to create one stream in a log that holds `existing` streams (ids 1...existing,
    /// so no gap below the next id: the old smallest-free-id query visited every one of them).
    private func stepsToCreateOneStream(besides existing: Int) throws -> Int64 {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        defer { log.close() }
        try log.administer { writer in
            try writer.connection.execute("""
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(existing))
                INSERT INTO streams (id, name, created_us) SELECT i, 'bulk.' || i, 0 FROM n
                """)
        }
        // The first creation after open reads the catalog's ids once; the next ones must not.
        try log.createStream("warm-up")
        _ = try log.administer(transactional: false) { $0.connection.takeVirtualMachineSteps() }
        try log.createStream("measured")
        let steps = try log.administer(transactional: false) { $0.connection.takeVirtualMachineSteps() }
        let ids = try catalogStreamIDs(dir.file())
        #expect(ids["warm-up"] == Int64(existing) + 1 && ids["measured"] == Int64(existing) + 2)
        // The daemon checks its stream limit with this count before each creation: no catalog read.
        #expect(try log.streamCount() == existing + 2)
        #expect(try log.administer(transactional: false) { $0.connection.takeVirtualMachineSteps() } == 0)
        return steps
    }

    @Test func creatingAStreamAmong20000TakesAsManySQLiteStepsAsAmong10() throws {
        let few = try stepsToCreateOneStream(besides: 10)
        let many = try stepsToCreateOneStream(besides: 20_000)
        #expect(few > 0)
        #expect(abs(many - few) <= 4, "creating stream 20 002 took \(many) SQLite steps, stream 12 took \(few)")
    }

    @Test func aFreedIDIsTakenAgainBeforeTheTopOneWithoutAScan() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        defer { log.close() }
        for index in 1...5 { try log.createStream("s\(index)") }
        try log.deleteStream("s2")
        try log.deleteStream("s4")
        try log.deleteStream("s5")
        for name in ["t1", "t2", "t3", "t4"] { try log.createStream(name) }
        let ids = try catalogStreamIDs(dir.file())
        #expect(ids["t1"] == 2 && ids["t2"] == 4 && ids["t3"] == 5 && ids["t4"] == 6)
        #expect(try log.streamCount() == 6)
        try log.deleteStream("t2")
        #expect(try log.streamCount() == 5)
        #expect(try log.verify().isClean)
    }
}

@Suite struct FreeStreamIDsTests {
    @Test func rangesSplitAndMergeAsIDsAreTakenAndReleased() {
        var free = FreeStreamIDs(usedAscending: [1, 2, 5, 9], limit: 12)
        #expect(free.smallest == 3)
        free.take(3); free.take(4)
        #expect(free.smallest == 6)
        free.release(2)
        #expect(free.smallest == 2)
        free.take(2); free.take(6); free.take(7); free.take(8)
        #expect(free.smallest == 10)
        free.take(10); free.take(11)
        #expect(free.smallest == nil, "ids stop below the limit")
        free.release(5); free.release(4); free.release(6)
        #expect(free.smallest == 4)
        free.take(5)
        #expect(free.smallest == 4)
        free.take(4)
        #expect(free.smallest == 6)
        #expect(free.usedCount == 10 && free.freeCount == 1)
        free.release(6)
        free.release(6)
        #expect(free.usedCount == 10, "releasing a free id twice counts once")
    }
}
