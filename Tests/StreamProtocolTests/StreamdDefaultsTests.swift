import Foundation
import Testing

import StreamProtocol

@Suite("StreamdDefaults")
struct StreamdDefaultsTests {
    @Test func anExplicitSocketWinsOverTheEnvironment() {
        let path = StreamdDefaults.socketPath("/tmp/given.sock", environment: ["STREAMD_SOCKET": "/tmp/env.sock", "XDG_RUNTIME_DIR": "/run/user/7"])
        #expect(path == "/tmp/given.sock")
    }

    @Test func theSocketVariableWinsOverTheRuntimeDirectory() {
        let path = StreamdDefaults.socketPath(environment: ["STREAMD_SOCKET": "/tmp/env.sock", "XDG_RUNTIME_DIR": "/run/user/7"])
        #expect(path == "/tmp/env.sock")
    }

    @Test func theSocketLivesInTheRuntimeDirectoryElseInTmpUnderTheUserID() {
        #expect(StreamdDefaults.socketPath(environment: ["XDG_RUNTIME_DIR": "/run/user/7"]) == "/run/user/7/streamd.sock")
        #expect(StreamdDefaults.socketPath(environment: [:]) == "/tmp/streamd-\(getuid())/streamd.sock")
        #expect(StreamdDefaults.socketPath(environment: ["XDG_RUNTIME_DIR": ""]) == "/tmp/streamd-\(getuid())/streamd.sock")
    }

    @Test func theDatabaseFollowsTheFlagThenTheVariableThenTheStateDirectoryThenHome() {
        #expect(StreamdDefaults.databasePath("/d/given.sqlite", environment: ["STREAMD_DB": "/d/env.sqlite"]) == "/d/given.sqlite")
        #expect(StreamdDefaults.databasePath(environment: ["STREAMD_DB": "/d/env.sqlite", "XDG_STATE_HOME": "/s"]) == "/d/env.sqlite")
        #expect(StreamdDefaults.databasePath(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]) == "/s/streamd/streamd.sqlite")
        #expect(StreamdDefaults.databasePath(environment: ["HOME": "/h"]) == "/h/.local/state/streamd/streamd.sqlite")
    }
}
