#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The access file (`streamd --acl PATH`): reading it safely and turning its JSON into `AccessRules`.
///
/// The form (schemas/streamd-acl.schema.json):
/// ```json
/// {"rules": [{"user": "alice", "streams": "public.*", "allow": ["read"]},
///            {"group": "ops", "streams": "*", "allow": ["read", "publish", "admin"]}]}
/// ```
/// Each rule names exactly one `user` or `group` (a name, or a numeric id as a number or a string of
/// digits), a `streams` pattern (see `StreamPattern`) and a non-empty `allow` list of `read`,
/// `publish`, `admin`. A top-level `$schema` string is allowed for editors; any other key is refused.
/// Names are resolved once, when the file is loaded.
///
/// Like sshd's StrictModes, the file must belong to root or the daemon's user and be writable by
/// nobody else; otherwise whoever could write it could grant themselves everything.
public enum AccessFile {
    /// The largest access file read.
    public static let maximumBytes = 1 << 20

    /// Reads, checks and parses the file at `path` for a daemon running as `ownerUID`.
    ///
    /// - Throws: `AccessFileError` naming the file, the line and column where it applies, and what to do.
    public static func load(_ path: String, ownerUID: UInt32, names: AccessNames = .system) throws(AccessFileError) -> AccessRules {
        let text = try contents(of: path, ownerUID: ownerUID)
        return AccessRules(ownerUID: ownerUID, rules: try parse(text, path: path, names: names))
    }

    /// The rules in `text`, the contents of the file `path` (named in errors).
    public static func parse(_ text: String, path: String, names: AccessNames = .system) throws(AccessFileError) -> [AccessRule] {
        let document: PositionedJSON
        do {
            document = try PositionedJSON.parse(text)
        } catch {
            throw AccessFileError(path: path, line: error.position.line, column: error.position.column, "\(error.reason); the file must be JSON such as {\"rules\": [{\"user\": \"alice\", \"streams\": \"public.*\", \"allow\": [\"read\"]}]}.")
        }
        func problem(_ at: PositionedJSON.Position, _ reason: String) -> AccessFileError {
            AccessFileError(path: path, line: at.line, column: at.column, reason)
        }
        guard case let .object(members) = document.value else {
            throw problem(document.position, "the file holds \(document.kind); it must hold an object with the key \"rules\".")
        }
        var rulesValue: PositionedJSON?
        for member in try unique(members, problem) {
            switch member.key {
            case "rules": rulesValue = member.value
            case "$schema":
                guard case .string = member.value.value else { throw problem(member.value.position, "\"$schema\" must be a string.") }
            default: throw problem(member.position, "unknown key \"\(member.key)\"; the file's object has the keys \"rules\" (and optionally \"$schema\").")
            }
        }
        guard let rulesValue else { throw problem(document.position, "the key \"rules\" is missing; give it a list of rules, [] for none.") }
        guard case let .array(items) = rulesValue.value else {
            throw problem(rulesValue.position, "\"rules\" is \(rulesValue.kind); it must be a list of rules.")
        }
        var rules: [AccessRule] = []
        for item in items { rules.append(try rule(item, names: names, problem)) }
        return rules
    }

    /// `members`, after checking that no key appears twice (JSON allows it; a reader would guess wrong).
    private static func unique(_ members: [PositionedJSON.Member], _ problem: (PositionedJSON.Position, String) -> AccessFileError) throws(AccessFileError) -> [PositionedJSON.Member] {
        var seen: Set<String> = []
        for member in members where !seen.insert(member.key).inserted {
            throw problem(member.position, "the key \"\(member.key)\" appears twice in one object; keep one.")
        }
        return members
    }

    /// The rule an item of `rules` describes.
    private static func rule(_ item: PositionedJSON, names: AccessNames, _ problem: (PositionedJSON.Position, String) -> AccessFileError) throws(AccessFileError) -> AccessRule {
        guard case let .object(members) = item.value else {
            throw problem(item.position, "a rule is \(item.kind); each rule must be an object such as {\"user\": \"alice\", \"streams\": \"*\", \"allow\": [\"read\"]}.")
        }
        var subject: AccessRule.Subject?
        var subjectKey: String?
        var pattern: StreamPattern?
        var allow: Set<AccessRight>?
        for member in try unique(members, problem) {
            switch member.key {
            case "user", "group":
                if let subjectKey {
                    throw problem(member.position, "this rule names both a \"\(subjectKey)\" and a \"\(member.key)\"; a rule is for one user or one group, so split it in two.")
                }
                subjectKey = member.key
                subject = try self.subject(member, names: names, problem)
            case "streams":
                guard case let .string(text) = member.value.value else {
                    throw problem(member.value.position, "\"streams\" is \(member.value.kind); it must be a pattern string such as \"*\" or \"orders.*\".")
                }
                do {
                    pattern = try StreamPattern(text)
                } catch {
                    throw problem(member.value.position, "the pattern \"\(text)\" \(error.reason).")
                }
            case "allow":
                allow = try rights(member.value, problem)
            default:
                throw problem(member.position, "unknown key \"\(member.key)\"; a rule has the keys \"user\" or \"group\", \"streams\" and \"allow\".")
            }
        }
        guard let subject else { throw problem(item.position, "this rule names no \"user\" and no \"group\"; say whom it is for.") }
        guard let pattern else { throw problem(item.position, "this rule has no \"streams\"; give a pattern such as \"*\" or \"orders.*\".") }
        guard let allow else { throw problem(item.position, "this rule has no \"allow\"; list its rights, some of \"read\", \"publish\", \"admin\".") }
        return AccessRule(subject, streams: pattern, allow: allow)
    }

    /// The user or group `member` names, resolved to its id.
    private static func subject(_ member: PositionedJSON.Member, names: AccessNames, _ problem: (PositionedJSON.Position, String) -> AccessFileError) throws(AccessFileError) -> AccessRule.Subject {
        let isUser = member.key == "user"
        let lookup = isUser ? names.user : names.group
        let noun = isUser ? "user" : "group"
        switch member.value.value {
        case let .number(text):
            guard let id = UInt32(text) else { throw problem(member.value.position, "\(text) is not a \(noun) id (a whole number from 0 to 4294967295).") }
            return isUser ? .user(id) : .group(id)
        case let .string(name):
            if let id = lookup(name) { return isUser ? .user(id) : .group(id) }
            if let id = UInt32(name) { return isUser ? .user(id) : .group(id) }
            let command = isUser ? "getent passwd" : "getent group"
            throw problem(member.value.position, "there is no \(noun) named \"\(name)\" on this system (`\(command) \(name)` finds none); create it, fix the name, or give its numeric id.")
        default:
            throw problem(member.value.position, "\"\(member.key)\" is \(member.value.kind); give the \(noun)'s name or numeric id.")
        }
    }

    /// The rights an `allow` list names.
    private static func rights(_ value: PositionedJSON, _ problem: (PositionedJSON.Position, String) -> AccessFileError) throws(AccessFileError) -> Set<AccessRight> {
        guard case let .array(items) = value.value else {
            throw problem(value.position, "\"allow\" is \(value.kind); it must be a list of rights such as [\"read\", \"publish\"].")
        }
        guard !items.isEmpty else { throw problem(value.position, "\"allow\" is empty; list at least one of \"read\", \"publish\", \"admin\", or remove the rule.") }
        var rights: Set<AccessRight> = []
        for item in items {
            guard case let .string(name) = item.value, let right = AccessRight(rawValue: name) else {
                let shown: String
                if case let .string(name) = item.value { shown = "unknown right \"\(name)\"" } else { shown = "a right is \(item.kind)" }
                throw problem(item.position, "\(shown); the rights are \"read\", \"publish\" and \"admin\".")
            }
            rights.insert(right)
        }
        return rights
    }

    /// The file's text, after checking who may change it.
    private static func contents(of path: String, ownerUID: UInt32) throws(AccessFileError) -> String {
        // Following a symbolic link is fine: the operator named the file. What matters is who can
        // change what it finally is, checked on the opened descriptor so nothing can swap it after.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw AccessFileError(path: path, "cannot open it: \(reason); check the path given to --acl (or STREAMD_ACL).")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw AccessFileError(path: path, "cannot read its status: \(String(cString: strerror(errno))).")
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw AccessFileError(path: path, "it is not a regular file; give --acl the path of a JSON file.")
        }
        let owner = UInt32(status.st_uid)
        guard owner == 0 || owner == ownerUID else {
            throw AccessFileError(path: path, "it belongs to uid \(owner), who is neither root nor the user streamd runs as (uid \(ownerUID)), and whoever owns it decides who may do what; run `chown \(ownerUID) \(path)` (or chown root) and start streamd again.")
        }
        let mode = status.st_mode & 0o777
        guard mode & 0o022 == 0 else {
            throw AccessFileError(path: path, "it is writable by \(mode & 0o002 != 0 ? "every user" : "its group") (mode \(String(mode, radix: 8))), so others could grant themselves any right; run `chmod go-w \(path)` and start streamd again.")
        }
        guard Int(status.st_size) <= maximumBytes else {
            throw AccessFileError(path: path, "it is \(status.st_size) bytes long, more than the \(maximumBytes) an access file may have.")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count <= maximumBytes {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw AccessFileError(path: path, "cannot read it: \(String(cString: strerror(errno))).") }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        guard bytes.count <= maximumBytes else {
            throw AccessFileError(path: path, "it is more than the \(maximumBytes) bytes an access file may have.")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw AccessFileError(path: path, "it is not UTF-8 text; save it as UTF-8 JSON.")
        }
        return text
    }
}
