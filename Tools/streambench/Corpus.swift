/// A realistic stream of ~100-byte JSON order events: increasing ids and timestamps with random
/// gaps, random amounts, users drawn from a few thousand names, a handful of types and currencies.
struct Corpus {
    private var state: UInt64
    private var id: UInt64 = 1_000_000
    private var timestamp: UInt64 = 1_732_190_000_000

    private static let first = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy",
        "mallory", "niaj", "olivia", "peggy", "rupert", "sybil", "trent", "victor", "walter", "yolanda"]
    private static let last = ["smith", "jones", "brown", "garcia", "miller", "davis", "lopez", "wilson", "moore",
        "taylor", "thomas", "lee", "white", "harris", "clark", "lewis", "young", "king", "wright", "hill"]
    private static let types = ["order.created", "order.paid", "order.shipped", "order.cancelled", "order.refunded"]
    private static let currencies = ["EUR", "USD", "GBP", "CHF"]

    init(seed: UInt64 = 0x2545_F491_4F6C_DD1D) { state = seed }

    private mutating func random() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }

    mutating func next() -> [UInt8] {
        id += 1 + random() % 3
        timestamp += random() % 40
        let r = random()
        let user = Corpus.first[Int(r % 20)] + "." + Corpus.last[Int((r >> 8) % 20)] + String((r >> 16) % 10)
        let cents = (r >> 24) % 100_000
        let text = "{\"ts\":\(timestamp),\"type\":\"\(Corpus.types[Int((r >> 44) % 5)])\",\"id\":\(id),\"user\":\"\(user)\",\"amount\":\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100),\"cur\":\"\(Corpus.currencies[Int((r >> 50) % 4)])\",\"qty\":\((r >> 54) % 9 + 1)}"
        return Array(text.utf8)
    }

    mutating func batch(_ count: Int) -> [[UInt8]] { (0..<count).map { _ in next() } }
}
