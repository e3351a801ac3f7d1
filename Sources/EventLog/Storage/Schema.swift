import Foundation

/// The schema the log creates and the versions it knows; `schemas/eventlog.sql` is the current text.
enum Schema {
    /// 'STRM': marks an SQLite file as a streamd event log.
    static let applicationID: Int64 = 1_398_035_021

    /// The schema version this build writes and reads.
    static let currentVersion: Int64 = 4

    /// The DDL of the current version (4), byte for byte the text of schemas/eventlog.sql.
    static let current = """
-- streamd event log, schema version 4.
-- This file is the authoritative DDL; Sources/EventLog/Storage/Schema.swift embeds the same text (a test
-- checks they are equal). The log runs it, in one transaction, when it opens an empty file, and migrates
-- files of versions 1 to 3 to it (SchemaMigrator).
-- application_id 0x5354524D ('STRM') marks the file as a streamd log; user_version is the schema version.
-- Before it runs this, the log sets PRAGMA auto_vacuum = INCREMENTAL (outside a transaction, which is the
-- only place it takes effect), so freed pages can be given back to the file system in small steps.
-- Files made without it (auto_vacuum NONE: those of earlier builds) are read and written the same way;
-- `streamctl compact` switches them with one full VACUUM. Either build reads either file, so the mode is
-- not part of user_version.
PRAGMA application_id = 1398035021;
PRAGMA user_version = 4;

-- The catalog: one row per named stream, with its retention/replay policy and its positions.
-- Sequences are per stream: 1, 2, 3, ... never reused while the stream exists. Retained events are
-- first_seq ... last_seq (empty when first_seq = last_seq + 1). Timestamps are microseconds since the
-- Unix epoch, never decreasing within a stream. Stream ids stay below 2^20.
CREATE TABLE streams (
    id            INTEGER PRIMARY KEY,
    name          TEXT    NOT NULL UNIQUE,
    capacity      INTEGER,                      -- keep the last N events; NULL = unlimited
    max_age_us    INTEGER,                      -- drop events older than this; NULL = no limit
    max_bytes     INTEGER,                      -- bound on stored block bytes; NULL = no limit
    replay_kind   INTEGER NOT NULL DEFAULT 0,   -- default start for late subscribers (ReadPosition)
    replay_arg    INTEGER NOT NULL DEFAULT 0,
    first_seq     INTEGER NOT NULL DEFAULT 1,   -- first retained sequence
    last_seq      INTEGER NOT NULL DEFAULT 0,   -- last assigned sequence (0 = none yet)
    last_ts       INTEGER NOT NULL DEFAULT 0,   -- timestamp of last_seq
    stored_bytes  INTEGER NOT NULL DEFAULT 0,   -- sum of length(payload) over the stream's blocks
    terminal_kind INTEGER NOT NULL DEFAULT 0,   -- 0 open, 1 completed, 2 failed (the event is stored too)
    created_us    INTEGER NOT NULL,
    dedup_events  INTEGER,                      -- (version 4) message ids kept over the last N events;
    dedup_age_us  INTEGER                       -- and for this long after their event; both NULL = the default
) STRICT;

-- Events are stored in blocks: one row holds a commit's worth of one stream's events (at most 256
-- events or 64 KiB of framing each). payload is the framing, raw (codec 0) or raw-deflated (codec 1);
-- crc32 is zlib's CRC-32 of payload as stored. Framing per event: kind byte (0 value, 1 completed,
-- 2 failed), varint timestamp delta from the previous event (the first from first_ts), varint length,
-- the bytes.
-- block_key is stream_id * 2^43 + last_seq, so the table itself is ordered by stream, then sequence:
-- reads from sequence S seek the first key >= stream_id * 2^43 + S, and a commit writes one b-tree,
-- with no index beside it. Sequences stay below 2^43. Reads since time T search by sequence, since
-- timestamps never decrease within a stream.
CREATE TABLE blocks (
    block_key  INTEGER PRIMARY KEY,
    stream_id  INTEGER NOT NULL REFERENCES streams(id),
    first_seq  INTEGER NOT NULL,
    last_seq   INTEGER NOT NULL,
    first_ts   INTEGER NOT NULL,
    last_ts    INTEGER NOT NULL,
    count      INTEGER NOT NULL,
    codec      INTEGER NOT NULL,
    raw_size   INTEGER NOT NULL,
    crc32      INTEGER NOT NULL,
    payload    BLOB    NOT NULL
) STRICT;

-- Message ids (version 3): the id a publish gave an event, with the sequence and timestamp the event
-- got, kept within the stream's de-duplication window (dedup_events and dedup_age_us: NULL for no bound
-- of that kind, but both NULL for streamd's default, the last 10 000 events), so a publish retried after
-- a restart is recognised. Written in the transaction that stores the events; forgotten by sequence, by
-- age, and with their stream.
CREATE TABLE message_ids (
    stream_id  INTEGER NOT NULL REFERENCES streams(id),
    message_id TEXT    NOT NULL,
    sequence   INTEGER NOT NULL,
    timestamp  INTEGER NOT NULL,
    PRIMARY KEY (stream_id, message_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX message_ids_by_sequence ON message_ids (stream_id, sequence);

-- Durable consumers (version 4): named readers of a stream whose place the log keeps, so they survive
-- restarts and go with their stream. next_seq is the first sequence no member has been given yet;
-- pending lists the events delivered and not yet acknowledged, in sequence order, as pairs of varints
-- (the sequence's distance from the previous one, or from 0 for the first; then its delivery count).
-- Every event below next_seq that is not pending is acknowledged. The configuration columns mean what
-- ConsumerConfig says: start as replay_kind/replay_arg, ack wait in milliseconds, NULL max_deliver for
-- no limit, dead_letter the name of a stream or NULL.
CREATE TABLE consumers (
    stream_id    INTEGER NOT NULL REFERENCES streams(id),
    name         TEXT    NOT NULL,
    start_kind   INTEGER NOT NULL,
    start_arg    INTEGER NOT NULL,
    ack_wait_ms  INTEGER NOT NULL,
    max_deliver  INTEGER,
    max_pending  INTEGER NOT NULL,
    dead_letter  TEXT,
    next_seq     INTEGER NOT NULL,
    pending      BLOB    NOT NULL,
    PRIMARY KEY (stream_id, name)
) STRICT, WITHOUT ROWID;

"""

    /// Version 2 to 3: the message-id table, as the current DDL makes it.
    static var migrationFrom2: String {
        section(from: "CREATE TABLE message_ids (", to: "-- Durable consumers")
    }

    /// Version 3 to 4: each stream's de-duplication window, and the consumers table, as the current
    /// DDL makes them (new columns go last, where the current DDL has them).
    static var migrationFrom3: String {
        """
        ALTER TABLE streams ADD COLUMN dedup_events INTEGER;
        ALTER TABLE streams ADD COLUMN dedup_age_us INTEGER;

        """ + section(from: "CREATE TABLE consumers (", to: nil)
    }

    /// The current DDL from the line starting `start` up to the line starting `end` (to its end when nil).
    private static func section(from start: String, to end: String?) -> String {
        let lower = current.range(of: start)!.lowerBound
        let upper = end.map { current.range(of: $0, range: lower..<current.endIndex)!.lowerBound } ?? current.endIndex
        return String(current[lower..<upper])
    }

    /// Version 1 to 2: blocks keyed by stream and last sequence, replacing both indexes.
    static var migrationFrom1: String {
        // The new table is the current DDL's, under a temporary name until the old one is dropped.
        let start = current.range(of: "CREATE TABLE blocks (")!
        let end = current.range(of: ") STRICT;", range: start.upperBound..<current.endIndex)!
        let table = "CREATE TABLE blocks_v2 (" + current[start.upperBound..<end.upperBound]
        // Version 1 gave each new stream one past the largest id, so a log that kept creating streams
        // and deleting old ones can hold ids past the 20 bits a key has: then every id (blocks of no
        // stream too, which stay orphans) is renumbered 1, 2, 3, ... in the same order.
        return table + """

            CREATE TEMP TABLE stream_ids AS
                SELECT old, CASE WHEN max(old) OVER () < \(BlockStore.streamIDLimit) THEN old ELSE row_number() OVER (ORDER BY old) END AS new
                FROM (SELECT id AS old FROM streams UNION SELECT stream_id FROM blocks);
            INSERT INTO blocks_v2
                SELECT new * \(BlockStore.keysPerStream) + last_seq, new, first_seq, last_seq, first_ts, last_ts,
                       count, codec, raw_size, crc32, payload
                FROM blocks JOIN temp.stream_ids ON old = stream_id ORDER BY new, last_seq;
            DROP TABLE blocks;
            ALTER TABLE blocks_v2 RENAME TO blocks;
            UPDATE streams SET id = -id WHERE id IN (SELECT old FROM temp.stream_ids WHERE new != old);
            UPDATE streams SET id = (SELECT new FROM temp.stream_ids WHERE old = -streams.id) WHERE id < 0;
            DROP TABLE temp.stream_ids;
            """
    }

    /// The DDL of version 1, which earlier builds created; kept so tests can make a version-1 file.
    static let version1 = """
-- streamd event log, schema version 1.
-- This file is the authoritative DDL; Sources/EventLog/Storage/Schema.swift embeds the same text (a test
-- checks they are equal). The log runs it, in one transaction, when it opens an empty file.
-- application_id 0x5354524D ('STRM') marks the file as a streamd log; user_version is the schema version.
PRAGMA application_id = 1398035021;
PRAGMA user_version = 1;

-- The catalog: one row per named stream, with its retention/replay policy and its positions.
-- Sequences are per stream: 1, 2, 3, ... never reused while the stream exists. Retained events are
-- first_seq ... last_seq (empty when first_seq = last_seq + 1). Timestamps are microseconds since the
-- Unix epoch, never decreasing within a stream.
CREATE TABLE streams (
    id            INTEGER PRIMARY KEY,
    name          TEXT    NOT NULL UNIQUE,
    capacity      INTEGER,                      -- keep the last N events; NULL = unlimited
    max_age_us    INTEGER,                      -- drop events older than this; NULL = no limit
    max_bytes     INTEGER,                      -- bound on stored block bytes; NULL = no limit
    replay_kind   INTEGER NOT NULL DEFAULT 0,   -- default start for late subscribers (ReadPosition)
    replay_arg    INTEGER NOT NULL DEFAULT 0,
    first_seq     INTEGER NOT NULL DEFAULT 1,   -- first retained sequence
    last_seq      INTEGER NOT NULL DEFAULT 0,   -- last assigned sequence (0 = none yet)
    last_ts       INTEGER NOT NULL DEFAULT 0,   -- timestamp of last_seq
    stored_bytes  INTEGER NOT NULL DEFAULT 0,   -- sum of length(payload) over the stream's blocks
    terminal_kind INTEGER NOT NULL DEFAULT 0,   -- 0 open, 1 completed, 2 failed (the event is stored too)
    created_us    INTEGER NOT NULL
) STRICT;

-- Events are stored in blocks: one row holds a commit's worth of one stream's events (at most 256
-- events or 64 KiB of framing each). payload is the framing, raw (codec 0) or raw-deflated (codec 1);
-- crc32 is zlib's CRC-32 of payload as stored. Framing per event: kind byte (0 value, 1 completed,
-- 2 failed), varint timestamp delta from the previous event (the first from first_ts), varint length,
-- the bytes.
CREATE TABLE blocks (
    stream_id  INTEGER NOT NULL REFERENCES streams(id),
    first_seq  INTEGER NOT NULL,
    last_seq   INTEGER NOT NULL,
    first_ts   INTEGER NOT NULL,
    last_ts    INTEGER NOT NULL,
    count      INTEGER NOT NULL,
    codec      INTEGER NOT NULL,
    raw_size   INTEGER NOT NULL,
    crc32      INTEGER NOT NULL,
    payload    BLOB    NOT NULL
) STRICT;

-- Reads from sequence S: the first block with last_seq >= S. Reads since time T: the first block with
-- last_ts >= T. Both are index seeks.
CREATE UNIQUE INDEX blocks_by_sequence ON blocks (stream_id, last_seq);
CREATE INDEX blocks_by_time ON blocks (stream_id, last_ts, last_seq);

"""
}
