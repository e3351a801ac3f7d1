import Foundation
import Testing
@testable import EventLog

struct Order: Codable, Equatable, Sendable {
    enum Status: Codable, Equatable, Sendable {
        case open
        case shipped(carrier: String, parcels: Int)
        case cancelled(reason: String?)
    }

    var id: Int64
    var customer: String
    var amount: Double
    var quantity: UInt16
    var tags: [String]
    var note: String?
    var discounts: [Int?]
    var status: Status
    var attributes: [String: Int]
    var urgent: Bool
}

struct OrderV1: Codable, Equatable {
    var id: Int64
    var customer: String
}

struct OrderV2: Codable, Equatable {
    var id: Int64
    var customer: String
    var channel: String?
}

let sampleOrders: [Order] = [
    Order(id: 1, customer: "Ada", amount: 12.5, quantity: 3, tags: ["new", "web"], note: nil,
          discounts: [5, nil, 0], status: .open, attributes: [:], urgent: false),
    Order(id: -9_223_372_036_854_775_808, customer: "Zoë 🚀", amount: -0.0, quantity: .max, tags: [],
          note: "", discounts: [], status: .shipped(carrier: "UPS", parcels: 2),
          attributes: ["weight": 1200, "volume": -3], urgent: true),
    Order(id: .max, customer: "", amount: .greatestFiniteMagnitude, quantity: 0, tags: [""], note: "gift",
          discounts: [nil], status: .cancelled(reason: nil), attributes: ["": 0], urgent: false),
]

@Suite struct EventCodecTests {
    @Test(arguments: ["json", "binary1"])
    func everyCodecRoundTripsNestedOptionalAndEnumValues(codecName: String) throws {
        let codec: any EventCodec = codecName == "json" ? JSONEventCodec() : BinaryEventCodec()
        #expect(codec.name == codecName)
        for order in sampleOrders {
            let bytes = try codec.encode(order)
            #expect(try codec.decode(Order.self, from: bytes) == order)
        }
    }

    @Test func theBinaryCodecRoundTripsTopLevelPrimitivesAndOptionals() throws {
        let codec = BinaryEventCodec()
        #expect(try codec.decode(Int.self, from: codec.encode(0)) == 0)
        #expect(try codec.decode(String.self, from: codec.encode("")) == "")
        #expect(try codec.decode(Int?.self, from: codec.encode(Int?.none)) == nil)
        #expect(try codec.decode(Int?.self, from: codec.encode(Int?.some(0))) == 0)
        #expect(try codec.decode([Int?].self, from: codec.encode([nil, 0, nil])) == [nil, 0, nil])
        #expect(try codec.decode(Double.self, from: codec.encode(Double.pi)) == .pi)
        #expect(try codec.decode(Float.self, from: codec.encode(Float(1.5))) == 1.5)
        #expect(try codec.decode(UInt64.self, from: codec.encode(UInt64.max)) == .max)
    }

    @Test func aTypeWithANewOptionalFieldReadsValuesWrittenBeforeIt() throws {
        let codec = BinaryEventCodec()
        let old = try codec.encode(OrderV1(id: 7, customer: "Ada"))
        #expect(try codec.decode(OrderV2.self, from: old) == OrderV2(id: 7, customer: "Ada", channel: nil))
        let new = try codec.encode(OrderV2(id: 8, customer: "Bo", channel: "app"))
        #expect(try codec.decode(OrderV1.self, from: new) == OrderV1(id: 8, customer: "Bo"))
    }

    @Test func theBinaryFormIsSmallerThanJSON() throws {
        for order in sampleOrders {
            let binary = try BinaryEventCodec().encode(order).count
            let json = try JSONEventCodec().encode(order).count
            #expect(binary < json, "binary \(binary) B, JSON \(json) B")
        }
    }

    @Test func truncatedBinaryDataIsAnErrorNotACrash() throws {
        let codec = BinaryEventCodec()
        let bytes = try codec.encode(sampleOrders[1])
        for length in 0..<bytes.count {
            #expect(throws: (any Error).self) { try codec.decode(Order.self, from: bytes.prefix(length)) }
        }
    }

    @Test func randomBytesDecodeToAnErrorNotACrash() {
        let codec = BinaryEventCodec()
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let bytes = (0..<Int.random(in: 0..<64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = try? codec.decode(Order.self, from: bytes)
        }
    }

    @Test func aValueOutOfRangeForItsTypeIsAnError() throws {
        let codec = BinaryEventCodec()
        #expect(throws: BinaryCodecError.self) { try codec.decode(UInt8.self, from: codec.encode(UInt64(300))) }
        #expect(throws: BinaryCodecError.self) { try codec.decode(Int8.self, from: codec.encode(-129)) }
        #expect(throws: BinaryCodecError.self) { try codec.decode(Bool.self, from: [7]) }
        #expect(throws: BinaryCodecError.self) { try codec.decode(String.self, from: [2, 0xC3, 0x28]) }
    }
}
