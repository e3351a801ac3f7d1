import Testing

@testable import StreamServer

@Suite struct StreamPatternTests {
    @Test func aStarMatchesAnyRunOfCharactersDotsIncludedButNotNothingBeforeIt() throws {
        let pattern = try StreamPattern("public.*")
        #expect(pattern.matches("public.news"))
        #expect(pattern.matches("public.a.b"))
        #expect(pattern.matches("public."))
        #expect(!pattern.matches("public"))
        #expect(!pattern.matches("publicnews"))
        #expect(!pattern.matches("x.public.news"))
    }

    @Test func aQuestionMarkMatchesExactlyOneCharacter() throws {
        let pattern = try StreamPattern("s?")
        #expect(pattern.matches("s1"))
        #expect(!pattern.matches("s"))
        #expect(!pattern.matches("s12"))
    }

    @Test func starsBacktrackAndLiteralsMatchCaseSensitively() throws {
        #expect(try StreamPattern("*.log.*").matches("a.log.b.log.c"))
        #expect(try StreamPattern("a*b*c").matches("aXbYbZc"))
        #expect(!(try StreamPattern("a*b*c").matches("aXbYbZ")))
        #expect(!(try StreamPattern("Orders").matches("orders")))
        #expect(try StreamPattern("orders").matches("orders"))
    }

    @Test func onlyStarsMatchEveryName() throws {
        #expect(try StreamPattern("*").matchesEveryName)
        #expect(try StreamPattern("**").matchesEveryName)
        #expect(!(try StreamPattern("*.*").matchesEveryName))
        #expect(try StreamPattern("*").matches("anything.at-all_1"))
    }

    @Test func aPatternWithACharacterNoStreamNameHoldsIsRefusedWithItsPlace() {
        #expect(throws: StreamPattern.Invalid.self) { try StreamPattern("") }
        do {
            _ = try StreamPattern("orders/*")
            Issue.record("a slash was accepted")
        } catch {
            #expect(error.reason.hasPrefix("has '/' at byte 6"))
        }
        #expect(throws: StreamPattern.Invalid.self) { try StreamPattern("a b") }
        #expect(throws: StreamPattern.Invalid.self) { try StreamPattern("[ab]") }
    }
}
