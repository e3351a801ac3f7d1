import Foundation
import StreamdTestSupport
import Testing

@testable import StreamServer

/// What `InheritedListener` accepts as a socket passed by a service manager, checked on real
/// descriptors: only a listening Unix domain stream socket, with a sentence for anything else.
@Suite struct InheritedListenerTests {
    /// A Unix socket of `type`, bound at `path` and, when `listening`, listening.
    private func unixSocket(_ type: Int32, at path: String, listening: Bool) throws -> Int32 {
        let descriptor = socket(AF_UNIX, type, 0)
        guard descriptor >= 0 else { throw TestFailure("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, !listening || listen(descriptor, 8) == 0 else { throw TestFailure("bind/listen \(path): \(String(cString: strerror(errno)))") }
        return descriptor
    }

    @Test func aListeningUnixStreamSocketIsTakenWithThePathItIsBoundTo() throws {
        let directory = try ShortTemporaryDirectory()
        let descriptor = try unixSocket(Int32(SOCK_STREAM.rawValue), at: directory.socket, listening: true)
        defer { close(descriptor) }
        let listener = try InheritedListener(checking: descriptor)
        #expect(listener.descriptor == descriptor)
        #expect(listener.path == directory.socket)
        #expect(fcntl(descriptor, F_GETFD) & FD_CLOEXEC != 0)
    }

    @Test func aRegularFileIsRefusedWithWhatItIs() throws {
        let directory = try ShortTemporaryDirectory()
        let descriptor = open(directory.database, O_CREAT | O_RDWR, 0o600)
        defer { close(descriptor) }
        let error = #expect(throws: StreamServerError.self) { try InheritedListener(checking: descriptor) }
        #expect(error?.kind == .inheritedSocket)
        #expect(error?.description.contains("is a regular file, not a socket") == true)
        #expect(error?.description.contains("ListenStream=") == true)
    }

    @Test func aStreamSocketThatDoesNotListenIsRefused() throws {
        let directory = try ShortTemporaryDirectory()
        let descriptor = try unixSocket(Int32(SOCK_STREAM.rawValue), at: directory.socket, listening: false)
        defer { close(descriptor) }
        let error = #expect(throws: StreamServerError.self) { try InheritedListener(checking: descriptor) }
        #expect(error?.description.contains("does not listen") == true)
    }

    @Test func aDatagramSocketIsRefused() throws {
        let directory = try ShortTemporaryDirectory()
        let descriptor = try unixSocket(Int32(SOCK_DGRAM.rawValue), at: directory.socket, listening: false)
        defer { close(descriptor) }
        let error = #expect(throws: StreamServerError.self) { try InheritedListener(checking: descriptor) }
        #expect(error?.description.contains("not a stream socket") == true)
    }

    @Test func aNetworkSocketIsRefused() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        let error = #expect(throws: StreamServerError.self) { try InheritedListener(checking: descriptor) }
        #expect(error?.description.contains("is a network socket") == true)
    }

    @Test func variablesMeantForAnotherProcessOrNamingNoDescriptorAreIgnored() throws {
        #expect(try InheritedListener.passed(in: [:]) == nil)
        #expect(try InheritedListener.passed(in: ["LISTEN_PID": "\(getpid() + 1)", "LISTEN_FDS": "1"]) == nil)
        #expect(try InheritedListener.passed(in: ["LISTEN_PID": "\(getpid())", "LISTEN_FDS": "0"]) == nil)
        let error = #expect(throws: StreamServerError.self) {
            try InheritedListener.passed(in: ["LISTEN_PID": "\(getpid())", "LISTEN_FDS": "many"])
        }
        #expect(error?.description.contains("LISTEN_FDS=many is not a number") == true)
    }
}
