import Testing
@testable import EventLog
import StreamdTestSupport

@Suite struct StreamNameTests {
    @Test(arguments: ["orders", "a", "Orders.v2", "x_y-z.0", String(repeating: "n", count: 200)])
    func namesInTheCharsetAreAccepted(_ name: String) throws {
        try StreamName.validate(name)
    }

    @Test(arguments: [
        ("", "is empty"), (".hidden", "starts with '.'"), ("a b", "' '"), ("a/b", "'/'"), ("é", "byte 0xc3"),
        (String(repeating: "n", count: 201), "201 bytes"),
    ])
    func namesOutsideTheRuleAreRefusedSayingWhy(_ name: String, _ why: String) {
        let error = expectLogError(.invalidStreamName) { try StreamName.validate(name) }
        #expect(error?.message.contains(why) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("A-Z a-z 0-9 . _ -") == true)
    }

    @Test func creatingAStreamValidatesItsNameAndPolicy() throws {
        let dir = TemporaryDirectory()
        let log = try EventLog(path: dir.file())
        expectLogError(.invalidStreamName) { try log.createStream("no spaces") }
        expectLogError(.invalidArgument) { try log.createStream("s", policy: StreamPolicy(maxAge: .zero)) }
        expectLogError(.invalidArgument) { try log.createStream("s", policy: StreamPolicy(maxBytes: 0)) }
        expectLogError(.invalidArgument) { try log.createStream("s", policy: StreamPolicy(replay: .streamDefault)) }
        #expect(try log.streams().isEmpty)
    }
}
