import Testing

@testable import StreamServer

@Suite struct MetricsRequestRuleTests {
    @Test func onlyGetOnTheMetricsPathIsServed() {
        #expect(MetricsRequestRule.answer(method: "GET", uri: "/metrics") == .metrics)
        #expect(MetricsRequestRule.answer(method: "GET", uri: "/metrics?name[]=x") == .metrics)
        #expect(MetricsRequestRule.answer(method: "HEAD", uri: "/metrics") == .methodNotAllowed)
        #expect(MetricsRequestRule.answer(method: "POST", uri: "/metrics") == .methodNotAllowed)
        #expect(MetricsRequestRule.answer(method: "GET", uri: "/") == .notFound)
        #expect(MetricsRequestRule.answer(method: "GET", uri: "/metrics/") == .notFound)
        #expect(MetricsRequestRule.answer(method: "DELETE", uri: "/other") == .notFound)
    }

    @Test func refusalsSaySoInASentence() {
        #expect(MetricsRequestRule.Answer.notFound.refusalBody.contains("only GET /metrics"))
        #expect(MetricsRequestRule.Answer.tooLarge.status.code == 431)
    }
}

@Suite struct MetricsAddressTests {
    @Test func hostAndPortAreParsedAndResolved() throws {
        let address = try MetricsAddress(parsing: "127.0.0.1:9464")
        #expect(address.host == "127.0.0.1")
        #expect(address.port == 9464)
        #expect(address.isLoopback)
        #expect(address.description == "127.0.0.1:9464")
    }

    @Test func bracketedIPv6IsParsed() throws {
        let address = try MetricsAddress(parsing: "[::1]:0")
        #expect(address.host == "::1")
        #expect(address.port == 0)
        #expect(address.isLoopback)
        #expect(address.description == "[::1]:0")
    }

    @Test func wildcardAndOtherAddressesAreNotLoopback() throws {
        #expect(try !MetricsAddress(parsing: "0.0.0.0:9464").isLoopback)
        #expect(try !MetricsAddress(parsing: "[::]:9464").isLoopback)
        #expect(try !MetricsAddress(parsing: "10.1.2.3:9464").isLoopback)
        #expect(try MetricsAddress(parsing: "127.8.9.10:9464").isLoopback)
    }

    @Test(arguments: [
        ("9464", "has no port"), ("localhost", "has no port"), ("127.0.0.1:", "TCP port"),
        ("127.0.0.1:65536", "TCP port"), ("127.0.0.1:-1", "TCP port"), ("127.0.0.1:http", "TCP port"),
        (":9464", "must name a host"), ("::1:9464", "in brackets"), ("[::1]9464", "in brackets"),
        ("no-such-host.invalid:9464", "does not resolve"),
    ])
    func badValuesAreRefusedWithASentence(text: String, sentence: String) {
        #expect {
            try MetricsAddress(parsing: text)
        } throws: { error in
            let description = (error as? MetricsAddressError)?.description ?? ""
            return description.contains(sentence) && description.hasSuffix(".") && description.hasPrefix("--metrics")
        }
    }
}
