import Foundation
import StreamdTestSupport
import Testing

/// A stream whose first block is damaged on disk can still be truncated and removed: those are how an
/// operator gets rid of the damage, so they must not depend on reading the stream's info first.
@Suite struct DamagedStreamTests {
    /// A daemon serving `orders` (sequences 1...100 in a damaged block, 101...110 in a sound one).
    private func damagedOrders() throws -> DaemonFixture {
        let fixture = try DaemonFixture()
        let ctl = Ctl(socket: fixture.socket)
        try ctl.succeed("publish", "orders", input: (1...100).map { "order \($0)\n" }.joined())
        try ctl.succeed("publish", "orders", input: (101...110).map { "order \($0)\n" }.joined())
        fixture.stop(with: SIGTERM)
        try DamagedDatabase.corruptFirstBlock(of: fixture.database)
        try fixture.start()
        return fixture
    }

    @Test func aDamagedStreamCanBeTruncatedPastItsDamage() throws {
        let fixture = try damagedOrders()
        let ctl = Ctl(socket: fixture.socket)
        #expect(try ctl.succeed("truncate", "orders", "--before-seq", "2", "--dry-run")
            == "would remove 1 event from orders (sequence 1); it would start at sequence 2\n")
        let summary = try ctl.json("truncate", "orders", "--before-seq", "101")
        #expect(summary["removed"]?.int == 100 && summary["first_sequence"]?.int == 101)
        #expect(summary["first_removed"]?.int == 1 && summary["last_removed"]?.int == 100)
        #expect(try ctl.run("tail", "orders", "--all").lines == (101...110).map { "order \($0)" })
    }

    @Test func aDamagedStreamCanBeRemoved() throws {
        let fixture = try damagedOrders()
        let ctl = Ctl(socket: fixture.socket)
        let result = try ctl.run("rm", "orders", "--json")
        #expect(result.status == 0, "\(result)")
        let summary = try JSONValue.parse(result.output)
        #expect(summary["stream"]?.string == "orders" && summary["deleted"]?.bool == true)
        #expect(try SchemaChecker.streamctl().problems(of: summary, against: "rm") == [])
        #expect(try ctl.json("ls")["streams"]?.array?.isEmpty == true)
        let again = try ctl.run("rm", "orders")
        #expect(again.status == 1 && again.standardError.contains("no stream named \"orders\""), "\(again)")
    }
}
