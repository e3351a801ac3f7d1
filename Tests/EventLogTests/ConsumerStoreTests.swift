import StreamModel
import StreamdTestSupport
import Testing
@testable import EventLog

@Suite struct ConsumerStoreTests {
    @Test func aVersion3LogGainsTheConsumersTableAndKeepsItsEventsAndIds() throws {
        let dir = TemporaryDirectory()
        do {
            let log = try EventLog(path: dir.file())
            try log.createStream("s")
            _ = try log.append(.value, [[1], [2]], messageIDs: ["a", "b"], to: "s", expectingLastSequence: nil)
            log.close()
        }
        try rawSQL(dir.file(), "\(removingVersion4) PRAGMA user_version = 3;")
        let log = try EventLog(path: dir.file())
        defer { log.close() }
        #expect(try log.readAll("s").map(\.payload) == [[1], [2]])
        #expect(try log.rememberedMessageIDs(of: "s").map(\.id) == ["a", "b"])
        let added = try log.addConsumer(ConsumerRecord(stream: "s", streamCreated: 0, name: "c", config: ConsumerConfig(maxDeliver: 3), nextSequence: 2))
        #expect(try log.consumers(of: "s") == [added])
        #expect(try log.verify().isClean)
    }

    @Test func aDamagedPendingSetIsReportedWithTheConsumerAndWhatToDo() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        defer { log.close() }
        try log.createStream("s")
        _ = try log.addConsumer(ConsumerRecord(stream: "s", streamCreated: 0, name: "c", config: ConsumerConfig(), nextSequence: 1))
        try rawSQL(dir.file(), "UPDATE consumers SET pending = x'05'")
        let error = expectLogError(.corruptDatabase) { _ = try log.consumers(of: "s") }
        #expect(error?.message.contains("the consumer \"c\" of stream \"s\" is damaged") == true)
        #expect(error?.message.contains("delete it and add it again") == true)
    }
}
