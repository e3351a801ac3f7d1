import StreamProtocol
import Testing

@testable import StreamServer

@Suite struct AccessRulesTests {
    static let owner: UInt32 = 900
    static let alice = AccessIdentity(uid: 1001, gid: 1001, pid: 10, userName: "alice")
    static let bob = AccessIdentity(uid: 1002, gid: 1002, pid: 11, userName: "bob", groups: [2000])

    static func rules() throws -> AccessRules {
        AccessRules(ownerUID: owner, rules: [
            AccessRule(.user(1001), streams: try StreamPattern("public.*"), allow: [.read]),
            AccessRule(.user(1001), streams: try StreamPattern("alice.*"), allow: [.read, .publish]),
            AccessRule(.group(2000), streams: try StreamPattern("*"), allow: [.read, .publish, .admin]),
        ])
    }

    @Test func withNoRulesOnlyTheOwnerAndRootMayDoAnything() {
        let rules = AccessRules(ownerUID: Self.owner)
        let owner = AccessIdentity(uid: Self.owner, gid: 5, pid: 1, userName: "streamd")
        let root = AccessIdentity(uid: 0, gid: 0, pid: 1, userName: "root")
        for right in AccessRight.allCases {
            #expect(rules.allows(owner, right, on: "any"))
            #expect(rules.allows(root, right, on: "any"))
            #expect(rules.allowsOnEveryStream(root, right))
            #expect(!rules.allows(Self.alice, right, on: "any"))
            #expect(!rules.allowsOnSomeStream(Self.alice, right))
        }
    }

    @Test func aUserRuleGrantsItsRightsOnMatchingStreamsOnly() throws {
        let rules = try Self.rules()
        #expect(rules.allows(Self.alice, .read, on: "public.news"))
        #expect(!rules.allows(Self.alice, .publish, on: "public.news"))
        #expect(rules.allows(Self.alice, .publish, on: "alice.notes"))
        #expect(!rules.allows(Self.alice, .admin, on: "alice.notes"))
        #expect(!rules.allows(Self.alice, .read, on: "orders"))
    }

    @Test func aGroupRuleAppliesThroughASupplementaryGroup() throws {
        let rules = try Self.rules()
        #expect(rules.allows(Self.bob, .admin, on: "orders"))
        let bobWithoutOps = AccessIdentity(uid: 1002, gid: 1002, pid: 11, userName: "bob")
        #expect(!rules.allows(bobWithoutOps, .read, on: "orders"))
        // The primary group counts as well.
        let primary = AccessIdentity(uid: 1003, gid: 2000, pid: 12, userName: "carol")
        #expect(rules.allows(primary, .publish, on: "x"))
    }

    @Test func everyStreamNeedsARuleWithTheStarPatternAndSomeStreamAnyRule() throws {
        let rules = try Self.rules()
        #expect(!rules.allowsOnEveryStream(Self.alice, .read))
        #expect(rules.allowsOnSomeStream(Self.alice, .read))
        #expect(!rules.allowsOnSomeStream(Self.alice, .admin))
        #expect(rules.allowsOnSomeStream(Self.alice))
        #expect(rules.allowsSomething(Self.alice, on: "alice.x"))
        #expect(!rules.allowsSomething(Self.alice, on: "orders"))
        #expect(!AccessRules(ownerUID: Self.owner).allowsOnSomeStream(Self.alice))
        #expect(rules.allowsOnEveryStream(Self.bob, .admin))
    }

    @Test func anIdentityFromPeerCredentialsHasTheUsersNameAndGroupsFromTheSystem() {
        let root = AccessIdentity(PeerCredentials(pid: 1, uid: 0, gid: 0))
        #expect(root.userName == "root")
        #expect(root.groups.contains(0))
        // A uid no user has keeps its primary group only.
        let nobody = AccessIdentity(PeerCredentials(pid: 1, uid: 3_999_999_999, gid: 4242))
        #expect(nobody.userName == nil)
        #expect(nobody.groups == [4242])
    }

    @Test func anIdentityIsDescribedByNameAndUid() {
        #expect(Self.alice.description == "user alice (uid 1001)")
        #expect(AccessIdentity(uid: 4242, gid: 1, pid: 1, userName: nil).description == "uid 4242 (no user of that id)")
    }
}
